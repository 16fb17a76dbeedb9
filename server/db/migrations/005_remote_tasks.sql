-- Remote-task lifecycle (sensor-setup 4, DESIGN.md "Sensor setup"): tasks run one at a time in
-- creation order, so creation needs a total order even within one millisecond.
ALTER TABLE downlink_tasks ADD COLUMN seq bigserial;

-- The queue of a sensor (limits, dispatch, the Queued list) and the timeout job's scan.
CREATE INDEX downlink_tasks_queued ON downlink_tasks (sensor_id, seq) WHERE status IN ('Created', 'Dispatched');
CREATE INDEX downlink_tasks_dispatched ON downlink_tasks (dispatched_at) WHERE status = 'Dispatched';
CREATE INDEX downlink_tasks_completed ON downlink_tasks (sensor_id, ended_at DESC) WHERE status IN ('Success', 'Error', 'Timeout', 'Canceled');
