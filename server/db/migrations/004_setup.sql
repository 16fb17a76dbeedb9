-- Sensor setup (issue 11). A sensor's name is unique within its organisation, ignoring case
-- (SENSOR_NAME_EXISTS_IN_ORGANISATION); the index makes two concurrent saves of one name
-- impossible. Unclaimed sensors (org_id null) are left out.
CREATE UNIQUE INDEX sensors_org_name ON sensors (org_id, lower(name)) WHERE org_id IS NOT NULL;
