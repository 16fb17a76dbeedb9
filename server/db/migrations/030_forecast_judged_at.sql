-- When the forecast alarm last judged a sensor, on the server's clock (server/alarms/forecast.ts):
-- the periodic pass judges a sensor again at most every FORECAST_RECHECK_MS of this, where it
-- compared the recheck with forecast_checked_at (the newest measurement time judged), so a sensor
-- whose data arrives late was judged at every pass that found newer data.
ALTER TABLE sensors ADD COLUMN forecast_judged_at bigint;
