-- The sensors list's order (lower(name), serial) within an organisation: the compact list's first
-- page (GET .../sensors?view=summary&limit=N) reads its rows from here without sorting the fleet.
CREATE INDEX sensors_list_order ON sensors (org_id, lower(name), serial);
