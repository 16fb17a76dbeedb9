-- The radar settings a sensor runs with (sensor-setup 2 radar section, 3 FullRadarConfig), so the
-- Radar Config screen can show them: written when a FullRadarConfig task ends in Success, and when
-- the device reports its settings in an uplink (after a boot). One row per sensor; `source` says
-- which wrote it last, `task_id` the task when it was one.
CREATE TABLE sensor_radar_settings (
  sensor_id uuid PRIMARY KEY REFERENCES sensors(id) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  source text NOT NULL CHECK (source IN ('task', 'device')),
  task_id uuid,
  updated_at bigint NOT NULL
);
