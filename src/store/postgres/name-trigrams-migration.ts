// Migration 12: every three-letter window of each folded name, in a table ordered for paging.
// migrations.ts lists it in its place. No import of the Migration type from there: that would be
// a cycle.

// The windows of one folded name (`key`), each once: substr counts characters, as q's length does.
const windowsOf = (key: string, id: string) =>
  `SELECT DISTINCT substr(${key}, i, 3) AS trigram, ${id} AS pet_id FROM generate_series(1, char_length(${key}) - 2) AS i`;

/**
 * A q of three characters is the commonest text typed, and a common one (one name in a hundred)
 * defeats both plans of `name_key LIKE`: walking the id order reads a hundred names per pet
 * returned, and the pg_trgm index finds every match, each on its own heap page, to sort them all
 * for one page. Here (trigram, pet_id) is a btree: such a q is an equality on trigram, read in id
 * order from the cursor, so a page reads its own rows and no more. Kept by triggers in the same
 * transaction as the pets, whatever writes them (petstore, an import, psql).
 */
export const NAME_TRIGRAMS_MIGRATION = {
  version: 12,
  description: "three-character windows of folded names, for q of three characters in id order",
  sql: `
    CREATE TABLE pet_name_trigrams (
      trigram text COLLATE "C" NOT NULL,
      pet_id bigint NOT NULL,
      PRIMARY KEY (trigram, pet_id)
    );
    INSERT INTO pet_name_trigrams (trigram, pet_id)
      SELECT w.trigram, w.pet_id FROM pets, LATERAL (${windowsOf("pets.name_key", "pets.id")}) AS w;

    -- Once per statement for creates and deletes: a batch of creates is one INSERT here.
    CREATE FUNCTION pet_name_trigrams_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO pet_name_trigrams (trigram, pet_id)
        SELECT w.trigram, w.pet_id FROM new_rows, LATERAL (${windowsOf("new_rows.name_key", "new_rows.id")}) AS w;
      RETURN NULL;
    END $$;
    CREATE FUNCTION pet_name_trigrams_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM pet_name_trigrams t
       USING old_rows, LATERAL (${windowsOf("old_rows.name_key", "old_rows.id")}) AS w
       WHERE t.trigram = w.trigram AND t.pet_id = w.pet_id;
      RETURN NULL;
    END $$;
    -- A rename only (the WHEN below): a status change or a new revision leaves the windows as they are.
    CREATE FUNCTION pet_name_trigrams_rename() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM pet_name_trigrams t USING (${windowsOf("OLD.name_key", "OLD.id")}) AS w
       WHERE t.trigram = w.trigram AND t.pet_id = w.pet_id;
      INSERT INTO pet_name_trigrams (trigram, pet_id) ${windowsOf("NEW.name_key", "NEW.id")};
      RETURN NULL;
    END $$;
    CREATE FUNCTION pet_name_trigrams_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE pet_name_trigrams;
      RETURN NULL;
    END $$;
    CREATE TRIGGER pets_trigrams_insert AFTER INSERT ON pets REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION pet_name_trigrams_insert();
    CREATE TRIGGER pets_trigrams_delete AFTER DELETE ON pets REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION pet_name_trigrams_delete();
    CREATE TRIGGER pets_trigrams_rename AFTER UPDATE ON pets
      FOR EACH ROW WHEN (OLD.name_key IS DISTINCT FROM NEW.name_key) EXECUTE FUNCTION pet_name_trigrams_rename();
    CREATE TRIGGER pets_trigrams_truncate AFTER TRUNCATE ON pets
      FOR EACH STATEMENT EXECUTE FUNCTION pet_name_trigrams_truncate();
  `,
};
