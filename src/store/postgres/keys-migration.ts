// Migration 7; migrations.ts lists it in its place. No import of the Migration type from there:
// that would be a cycle.

/** The channel on which every change of a key that matters to a request is announced. */
export const KEY_CHANGES_CHANNEL = "petstore_keys";

/**
 * Instances cache key records (key-cache.ts); a key revoked, rotated or changed through one
 * instance is announced to all of them at the commit. A use (last_used_at, written once a
 * second) changes nothing a request depends on and is not announced.
 */
export const KEY_CHANGES_MIGRATION = {
  version: 7,
  description: "announce key changes, for the caches of key records in every instance",
  sql: `
    CREATE FUNCTION petstore_announce_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'TRUNCATE' THEN
        PERFORM pg_notify('${KEY_CHANGES_CHANNEL}', '*');
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('${KEY_CHANGES_CHANNEL}', OLD.id);
      ELSIF (to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at') THEN
        PERFORM pg_notify('${KEY_CHANGES_CHANNEL}', NEW.id);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER api_keys_announce_row AFTER UPDATE OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION petstore_announce_key_change();
    CREATE TRIGGER api_keys_announce_truncate AFTER TRUNCATE ON api_keys
      FOR EACH STATEMENT EXECUTE FUNCTION petstore_announce_key_change();
  `,
};
