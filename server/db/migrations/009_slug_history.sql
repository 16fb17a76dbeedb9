-- Slugs an organisation had before a rename, so old links still resolve through the
-- organisation's id (monitoring-client 2.1: "If the organisation name was just changed, the
-- client redirects using the new slug"). A trigger records the old slug on every slug change,
-- whichever code path renames.
CREATE TABLE organisation_slugs (
  slug text PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  replaced_at bigint NOT NULL
);
CREATE INDEX organisation_slugs_org ON organisation_slugs (org_id);

-- the function body is one line: migrate.ts splits statements on semicolons at line ends
CREATE OR REPLACE FUNCTION organisations_record_former_slug() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO organisation_slugs (slug, org_id, replaced_at) VALUES (OLD.slug, OLD.id, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) ON CONFLICT (slug) DO UPDATE SET org_id = EXCLUDED.org_id, replaced_at = EXCLUDED.replaced_at; DELETE FROM organisation_slugs WHERE slug = NEW.slug; RETURN NEW; END $$;

CREATE TRIGGER organisations_slug_history AFTER UPDATE OF slug ON organisations
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug) EXECUTE FUNCTION organisations_record_former_slug();

-- Legacy zone abbreviations stored before zones were validated (src/domain/time-zone.ts)
UPDATE organisations SET locale = jsonb_set(locale, '{timezone}', '"Pacific/Auckland"')
  WHERE upper(locale->>'timezone') IN ('NZST', 'NZDT', 'NZT', 'NZ');
