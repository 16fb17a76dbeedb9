-- The meter reader's app (issue 33): each record call carries an idempotency key, so a capture
-- retried after a lost answer records once. The first successful answer is kept under the
-- caller's key with a hash of the request; the same key and request answer it again, the same
-- key with another request is refused. Deleting the reading (its task) forgets its keys.
CREATE TABLE IF NOT EXISTS reading_records (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key text NOT NULL,
  reading_id uuid NOT NULL REFERENCES meter_readings(id) ON DELETE CASCADE,
  request_hash text NOT NULL,
  answer text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (user_id, key)
);
CREATE INDEX IF NOT EXISTS reading_records_reading ON reading_records (reading_id);
