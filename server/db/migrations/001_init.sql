-- The whole data model of the three specs. Times are epoch milliseconds (bigint) so the
-- gateway answers numbers without conversion; lengths are millimetres as the devices send them.

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE users (
  id uuid PRIMARY KEY,                           -- Cognito sub = cognitoIdentityId
  email text NOT NULL UNIQUE,                    -- lower-cased
  name text NOT NULL DEFAULT '',
  mobile text,
  password_hash text NOT NULL,
  status text NOT NULL DEFAULT 'CONFIRMED',      -- CONFIRMED | FORCE_CHANGE_PASSWORD | UNCONFIRMED
  email_verified boolean NOT NULL DEFAULT false,
  is_site_admin boolean NOT NULL DEFAULT false,
  profile_created boolean NOT NULL DEFAULT false,-- POST /create-self done
  display_settings jsonb NOT NULL DEFAULT '{"timeDisplay":"Friendly"}',
  failed_logins integer NOT NULL DEFAULT 0,
  locked_until bigint NOT NULL DEFAULT 0,
  token_epoch integer NOT NULL DEFAULT 0,        -- bumped by GlobalSignOut: older tokens die
  created_at bigint NOT NULL
);

CREATE TABLE identity_codes (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL,                         -- verify_email | reset_password
  code_hash text NOT NULL,
  expires_at bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX identity_codes_user ON identity_codes (user_id, purpose, created_at DESC);

CREATE TABLE refresh_tokens (
  jti text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  client_id text NOT NULL,
  expires_at bigint NOT NULL,
  revoked_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

CREATE TABLE organisations (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  measurement_unit text NOT NULL DEFAULT 'Metres',
  locale jsonb NOT NULL DEFAULT '{"timezone":"Pacific/Auckland","country":"NZ"}',
  features jsonb NOT NULL DEFAULT '{"isFuel":false,"liveMode":true,"meterReading":false}',
  rest_api jsonb,                                -- {key, token} when the organisation has a REST API
  default_notification_rule jsonb NOT NULL DEFAULT '{"email":true,"sms":false}',
  notification_settings jsonb NOT NULL DEFAULT '{"alertAssert":{"email":true,"sms":false},"alertClear":{"email":true,"sms":false}}',
  created_at bigint NOT NULL
);

CREATE TABLE memberships (
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role smallint NOT NULL CHECK (role BETWEEN 1 AND 4), -- 1 member, 2 admin, 3 owner, 4 meter reader
  notification_rule jsonb,                        -- null: the organisation's default rule applies
  created_at bigint NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE invitations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  email text NOT NULL,
  name text NOT NULL,
  role smallint NOT NULL,
  mobile text,
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
  last_invite_at bigint NOT NULL,
  accepted_at bigint,
  canceled_at bigint,
  created_at bigint NOT NULL
);
CREATE UNIQUE INDEX invitations_open ON invitations (org_id, email) WHERE accepted_at IS NULL AND canceled_at IS NULL;

CREATE TABLE sensors (
  id uuid PRIMARY KEY,
  serial text NOT NULL UNIQUE,                   -- upper-case hex, 6 or 8 characters
  claim_code text NOT NULL,                      -- lower-case 8-4-4-4-12 hex
  device_key_hash text NOT NULL,                 -- sha256 of the device key the sensor authenticates with
  org_id uuid REFERENCES organisations(id) ON DELETE SET NULL,  -- null: unclaimed
  name text NOT NULL,
  sensor_type text NOT NULL,
  latitude double precision,
  longitude double precision,
  radio jsonb NOT NULL DEFAULT '{"type":"cellular"}',
  config jsonb NOT NULL DEFAULT '{"schedulerEnabled":true,"measurementInterval":5,"transmissionInterval":30,"measurementTransmissionEnabled":true,"deltaCompressionEnabled":false,"txCountOnAlarm":1,"serverSideAlarm":false}',
  display_info jsonb NOT NULL DEFAULT '{"referenceLines":[]}',
  conversion_configs jsonb NOT NULL DEFAULT '[]',
  alarms jsonb NOT NULL DEFAULT '{}',
  bounds_filter jsonb NOT NULL DEFAULT '{"type":"gradient","enabled":true,"maxGradient":150}',
  range_config jsonb NOT NULL DEFAULT '{"enabled":false}',
  pending_config jsonb,
  integration jsonb NOT NULL DEFAULT '{"commissioningStatus":1}',
  latest_data jsonb,
  latest_boot_info jsonb,
  created_at bigint NOT NULL,
  claimed_at bigint
);
CREATE INDEX sensors_org ON sensors (org_id, name);
CREATE UNIQUE INDEX sensors_point_id ON sensors ((integration->>'pointId')) WHERE integration->>'pointId' IS NOT NULL AND integration->>'pointId' <> '';

-- Keyed by (sensor, time): the uplink path is idempotent on it and range reads walk it in order.
CREATE TABLE measurements (
  sensor_id uuid NOT NULL REFERENCES sensors(id) ON DELETE CASCADE,
  time bigint NOT NULL,
  raw_distance real NOT NULL,
  beta_raw_distance real,
  PRIMARY KEY (sensor_id, time)
);

CREATE TABLE measurement_errors (
  id bigserial PRIMARY KEY,
  sensor_id uuid NOT NULL REFERENCES sensors(id) ON DELETE CASCADE,
  code text NOT NULL,
  time bigint NOT NULL,
  UNIQUE (sensor_id, time, code)
);
CREATE INDEX measurement_errors_range ON measurement_errors (sensor_id, time);

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  sensor_id uuid NOT NULL REFERENCES sensors(id) ON DELETE CASCADE,
  type text NOT NULL,                            -- WATER_LEVEL_ALARM | THRESHOLD_ALARM | ACCELEROMETER | SENSOR_ERROR | LOW_BATTERY | SENSOR_OFFLINE | DELTA_ALARM
  condition_key text NOT NULL,                   -- which alarm condition: one open notification per key
  start_time bigint NOT NULL,
  end_time bigint,
  endless boolean NOT NULL DEFAULT false,
  meta jsonb NOT NULL DEFAULT '{}',
  created_at bigint NOT NULL
);
CREATE INDEX notifications_org ON notifications (org_id, start_time DESC);
CREATE UNIQUE INDEX notifications_open ON notifications (sensor_id, condition_key) WHERE end_time IS NULL AND endless = false;

CREATE TABLE downlink_tasks (
  id uuid PRIMARY KEY,
  sensor_id uuid NOT NULL REFERENCES sensors(id) ON DELETE CASCADE,
  type text NOT NULL,
  params jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'Created',        -- Created | Dispatched | Success | Error | Timeout | Canceled
  created_by uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at bigint NOT NULL,
  dispatched_at bigint,
  ended_at bigint
);
CREATE INDEX downlink_tasks_sensor ON downlink_tasks (sensor_id, created_at);

CREATE TABLE firmware (
  id uuid PRIMARY KEY,
  fw_name text NOT NULL,
  fw_type text NOT NULL,                         -- Main | Radar | Ble
  fw_version integer NOT NULL,
  build_type text NOT NULL,                      -- Alpha | Beta | Production
  apply_to jsonb NOT NULL DEFAULT '{"hardwareVersions":[]}',
  created_at bigint NOT NULL
);

CREATE TABLE integrations (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'webhook',
  url text NOT NULL,
  headers jsonb NOT NULL DEFAULT '[]',
  secret text NOT NULL,                          -- Standard Webhooks signing secret (whsec_...)
  created_at bigint NOT NULL
);
CREATE INDEX integrations_org ON integrations (org_id);

CREATE TABLE tank_presets (
  id uuid PRIMARY KEY,
  org_id uuid REFERENCES organisations(id) ON DELETE CASCADE, -- null: offered to every organisation
  manufacturer text NOT NULL,
  model text NOT NULL,
  shape text NOT NULL,
  width double precision,
  height double precision,
  length double precision,
  diameter double precision,
  safe_fill_level double precision
);

CREATE TABLE fuel_installations (
  sensor_id uuid PRIMARY KEY REFERENCES sensors(id) ON DELETE CASCADE,
  time bigint NOT NULL,
  fuel_type text NOT NULL,
  shape text NOT NULL,
  width double precision,
  height double precision,
  length double precision,
  diameter double precision,
  safe_fill_level double precision,
  monitor_height double precision,
  dip_reading double precision,
  preset_id uuid REFERENCES tank_presets(id) ON DELETE SET NULL,
  cert_plate_image_url text,
  close_image_url text,
  far_image_url text
);

CREATE TABLE route_metadata (
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  route_name text NOT NULL,
  suburb text,
  type text,                                     -- commercial | urban | rural
  PRIMARY KEY (org_id, route_name)
);

CREATE TABLE route_tasks (
  id uuid PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
  task_number integer NOT NULL,
  route_name text NOT NULL,
  group_name text,
  is_special boolean NOT NULL DEFAULT false,
  assigned_to uuid REFERENCES users(id) ON DELETE SET NULL,
  iteration_number text,
  started_at bigint,
  completed_at bigint,
  exported boolean NOT NULL DEFAULT false,
  est_time_spent bigint,
  created_at bigint NOT NULL,
  UNIQUE (org_id, task_number)
);

CREATE TABLE meter_readings (
  id uuid PRIMARY KEY,
  route_task_id uuid NOT NULL REFERENCES route_tasks(id) ON DELETE CASCADE,
  sequence integer NOT NULL,
  meter_info jsonb NOT NULL,                     -- serial, location, propertyAddress, ownerName, valuationRef, additionalLocationInfo, latitude, longitude
  ozone_reference text,
  value bigint,                                  -- null or -1: not read
  recorded_at bigint,
  recorded_by uuid REFERENCES users(id) ON DELETE SET NULL,
  completed boolean NOT NULL DEFAULT false,
  notes text,
  cant_read_code text,
  comment_code text,
  exception text,
  service_required boolean NOT NULL DEFAULT false,
  edited boolean NOT NULL DEFAULT false,
  photo_url text,
  last_recorded_reading bigint,
  imported_prev_reading jsonb
);
CREATE INDEX meter_readings_task ON meter_readings (route_task_id, sequence);

-- Transactional outbox: rows are written in the transaction that caused them and delivered after.
CREATE TABLE outbox (
  id uuid PRIMARY KEY,
  channel text NOT NULL,                         -- email | sms | webhook
  recipient text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending',        -- pending | sent | kept | failed
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  last_error text,
  created_at bigint NOT NULL,
  sent_at bigint
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_channel ON outbox (channel, created_at DESC);

CREATE TABLE app_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
