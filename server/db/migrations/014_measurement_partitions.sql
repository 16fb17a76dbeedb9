-- Issue 17: `measurements` partitioned by time (calendar months, UTC, bounds in epoch ms).
--
-- The existing table becomes the DEFAULT partition as it is: no row is copied here, so the
-- migration is as quick on a billion rows as on none and no row can be lost. The partition job
-- (server/db/measurement-partitions.ts, run at start and hourly by every process under an
-- advisory lock) then creates the monthly partitions ahead of time and moves the default
-- partition's rows into them month by month, sorted by (sensor_id, time), and CLUSTERs each
-- month once it is closed, so one sensor's old data sits on consecutive pages. The DEFAULT
-- partition stays for ever: an uplink with a time no partition covers (far past, far future)
-- is still stored.
--
-- The primary key (sensor_id, time) stays: it includes the partition key, so the uplink path's
-- ON CONFLICT (sensor_id, time) DO NOTHING still works, per partition.

ALTER TABLE measurements RENAME TO measurements_default;
ALTER TABLE measurements_default RENAME CONSTRAINT measurements_pkey TO measurements_default_pkey;
ALTER TABLE measurements_default RENAME CONSTRAINT measurements_sensor_id_fkey TO measurements_default_sensor_id_fkey;

CREATE TABLE measurements (
  sensor_id uuid NOT NULL,
  time bigint NOT NULL,
  raw_distance real NOT NULL,
  beta_raw_distance real,
  CONSTRAINT measurements_pkey PRIMARY KEY (sensor_id, time),
  CONSTRAINT measurements_sensor_id_fkey FOREIGN KEY (sensor_id) REFERENCES sensors(id) ON DELETE CASCADE
) PARTITION BY RANGE (time);

-- uses the old table's primary-key index and foreign key as the partition's own (no scan, no rebuild)
ALTER TABLE measurements ATTACH PARTITION measurements_default DEFAULT;
