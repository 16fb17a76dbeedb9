-- The organisation record's radioNetworkSensors (does the organisation have a Sigfox or Myriota
-- sensor: its managers then see the radio callbacks in the Integration settings) is an EXISTS read
-- with every organisation list. Without this index an organisation with no such sensor would have
-- all its sensors read at each list; with it the answer is one index probe at any fleet size. The
-- predicate reads only `radio`, which ingest's per-uplink rewrite leaves alone, so that rewrite
-- stays heap-only (tests/server/ingest-hot.test.ts).
CREATE INDEX sensors_radio_network ON sensors (org_id) WHERE radio->>'type' IN ('sigfox', 'myriota');
