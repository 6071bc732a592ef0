// Migration 5: the events of GET /v1/events, written by triggers in the transaction of each
// change, so an event exists exactly when its change committed, whichever instance made it.

export const EVENTS_MIGRATION = {
  version: 5,
  description: "events (GET /v1/events) written with each change, announced by NOTIFY",
  sql: `
    CREATE TABLE events (
      id bigint PRIMARY KEY,
      type text NOT NULL,
      at timestamptz NOT NULL,
      data jsonb NOT NULL
    );
    CREATE SEQUENCE events_id_seq;
    -- Ids below it were trimmed: a resume from before it is told to reset.
    CREATE TABLE events_floor (one boolean PRIMARY KEY DEFAULT true CHECK (one), first_kept bigint NOT NULL);
    INSERT INTO events_floor (first_kept) VALUES (1);

    CREATE FUNCTION petstore_event(kind text, body jsonb) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      -- One transaction at a time hands out event ids, holding the lock until it commits, so
      -- ids follow commit order: a reader that has seen id n will never later find a smaller one.
      PERFORM pg_advisory_xact_lock(7215001);
      INSERT INTO events (id, type, at, data) VALUES (nextval('events_id_seq'), kind, clock_timestamp(), body);
      -- Delivered at commit, once per transaction (identical notifications are folded).
      PERFORM pg_notify('petstore_events', '');
    END $$;

    CREATE FUNCTION petstore_pet_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM petstore_event('pet.deleted', jsonb_build_object('id', OLD.id));
        RETURN NULL;
      END IF;
      PERFORM petstore_event(CASE TG_OP WHEN 'INSERT' THEN 'pet.created' ELSE 'pet.updated' END,
        jsonb_build_object('id', NEW.id, 'name', NEW.name, 'categoryId', NEW.category_id, 'status', NEW.status));
      RETURN NULL;
    END $$;

    CREATE FUNCTION petstore_order_event() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM petstore_event(CASE TG_OP WHEN 'INSERT' THEN 'order.created' ELSE 'order.updated' END,
        jsonb_build_object('id', NEW.id, 'petId', NEW.pet_id, 'status', NEW.status,
          'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'updatedAt', to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
      RETURN NULL;
    END $$;

    CREATE TRIGGER pets_event_insert AFTER INSERT ON pets FOR EACH ROW EXECUTE FUNCTION petstore_pet_event();
    -- Only a change the API shows (a new revision), not the bookkeeping of open_order_id.
    CREATE TRIGGER pets_event_update AFTER UPDATE ON pets FOR EACH ROW
      WHEN (OLD.revision IS DISTINCT FROM NEW.revision) EXECUTE FUNCTION petstore_pet_event();
    CREATE TRIGGER pets_event_delete AFTER DELETE ON pets FOR EACH ROW EXECUTE FUNCTION petstore_pet_event();
    CREATE TRIGGER orders_event_insert AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION petstore_order_event();
    CREATE TRIGGER orders_event_update AFTER UPDATE ON orders FOR EACH ROW
      WHEN (OLD.revision IS DISTINCT FROM NEW.revision) EXECUTE FUNCTION petstore_order_event();
  `,
};
