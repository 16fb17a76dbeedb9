-- Meter-reading service routes (issue 14): what the record call stores beyond 001's columns,
-- and the indexes the registry lookups and the task list need.
ALTER TABLE meter_readings ADD COLUMN IF NOT EXISTS position jsonb;
ALTER TABLE meter_readings ADD COLUMN IF NOT EXISTS reason text;

-- the meter registry (DESIGN.md): an organisation's earlier readings found by (ozone reference, serial)
CREATE INDEX IF NOT EXISTS meter_readings_meter ON meter_readings (ozone_reference, (meter_info->>'serial'));
CREATE INDEX IF NOT EXISTS route_tasks_org ON route_tasks (org_id, task_number);
CREATE INDEX IF NOT EXISTS route_tasks_assigned ON route_tasks (assigned_to) WHERE assigned_to IS NOT NULL;
