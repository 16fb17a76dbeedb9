-- The notifications page's order as one sortable number (issue 32): the spec's type priority
-- (level or threshold alarms 0, accelerometer 1, sensor error 2, low battery 3, offline 4, delta 5;
-- src/domain/notification-rules.ts NOTIFICATION_PRIORITY) times 10^16 (past any start time), minus
-- the start time, so ascending page_order is priority first, newest start first within a group.
-- Keyset paging reads (page_order, id) > (cursor) straight off these indexes.
ALTER TABLE notifications ADD COLUMN page_order bigint GENERATED ALWAYS AS (
  (CASE type
     WHEN 'WATER_LEVEL_ALARM' THEN 0
     WHEN 'THRESHOLD_ALARM' THEN 0
     WHEN 'ACCELEROMETER' THEN 1
     WHEN 'SENSOR_ERROR' THEN 2
     WHEN 'LOW_BATTERY' THEN 3
     WHEN 'SENSOR_OFFLINE' THEN 4
     WHEN 'DELTA_ALARM' THEN 5
     ELSE 6
   END) * 10000000000000000 - start_time
) STORED;
CREATE INDEX notifications_page ON notifications (org_id, page_order, id);
CREATE INDEX notifications_page_open ON notifications (org_id, page_order, id) WHERE end_time IS NULL AND endless = false;
CREATE INDEX notifications_page_sensor ON notifications (sensor_id, page_order, id);
