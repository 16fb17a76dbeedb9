-- The compact list's refresh (GET .../sensors?view=summary&since=, docs/architecture.md): each
-- sensor row carries when it last changed on the database's clock, set by a trigger on every
-- write path (ingest's latest data, setup, claims, the offline and forecast jobs), and a sensor
-- that leaves an organisation (deleted, or its org_id changed or cleared) leaves a departure row, so a
-- client holding the list reads only what changed since its last read. Rows from before this
-- migration keep 0: unchanged since any cursor.
-- changed_at has no index of its own: ingest rewrites a sensor's row at each uplink, and an indexed
-- column changing would end the heap-only (HOT) updates that keep that rewrite in place
-- (tests/server/ingest-hot.test.ts); the change query reads the organisation's rows by
-- sensors_list_order and filters them.
ALTER TABLE sensors ADD COLUMN changed_at bigint NOT NULL DEFAULT 0;
CREATE TABLE sensor_departures (
  org_id uuid NOT NULL,
  sensor_id uuid NOT NULL,
  departed_at bigint NOT NULL
);
CREATE INDEX sensor_departures_org ON sensor_departures (org_id, departed_at);
-- a write that changes nothing (a save of the same values) is not a change
CREATE OR REPLACE FUNCTION sensors_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'INSERT' OR NEW IS DISTINCT FROM OLD THEN NEW.changed_at := (extract(epoch FROM clock_timestamp()) * 1000)::bigint; END IF; RETURN NEW; END $$;
CREATE TRIGGER sensors_changed BEFORE INSERT OR UPDATE ON sensors FOR EACH ROW EXECUTE FUNCTION sensors_mark_changed();
CREATE OR REPLACE FUNCTION sensors_record_departure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF OLD.org_id IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.org_id IS DISTINCT FROM OLD.org_id) THEN INSERT INTO sensor_departures (org_id, sensor_id, departed_at) VALUES (OLD.org_id, OLD.id, (extract(epoch FROM clock_timestamp()) * 1000)::bigint); END IF; RETURN NULL; END $$;
CREATE TRIGGER sensors_departed AFTER DELETE OR UPDATE OF org_id ON sensors FOR EACH ROW EXECUTE FUNCTION sensors_record_departure();
