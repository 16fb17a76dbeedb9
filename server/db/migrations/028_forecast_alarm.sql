-- Beyond the spec: the forecast alarm (src/domain/forecast-alarm.ts). forecast_alarm holds the
-- sensor's settings ({"emptyWithinDays": n|null, "fullWithinDays": n|null}; NULL: never set);
-- forecast_checked_at the newest measurement time the alarm was judged on, so the periodic check
-- (server/alarms/forecast.ts) reads only sensors with data newer than that.
ALTER TABLE sensors ADD COLUMN forecast_alarm jsonb;
ALTER TABLE sensors ADD COLUMN forecast_checked_at bigint;
CREATE INDEX sensors_forecast_alarm ON sensors (forecast_checked_at) WHERE forecast_alarm IS NOT NULL;
