import { useEffect, useState } from 'react';
import { Alert, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { z } from 'zod';
import { usageForecastSchema, usageSchema } from '../../contract/usage.schema';
import { forecastFormOf, forecastFormToBody, FORECAST_ALARM_MAX_DAYS, FORECAST_DIRECTIONS, type ForecastAlarmForm, type ForecastDirection } from '../../domain/forecast-alarm';
import { SETUP_NOTICES } from '../../domain/setup-messages';
import { aboutDays, shortDate } from '../../domain/usage-format';
import { UpdateButton } from './update-button';
import { api } from '../../shared/api';
import type { SectionProps } from './section-types';
import { saveFailure } from './failure';
import { useSectionSave } from './use-section-save';

const LABEL: Record<ForecastDirection, string> = { empty: 'Forecast empty within', full: 'Forecast full within' };
const DAY_MS = 86_400_000;

/**
 * The forecast alarm (beyond the spec, src/domain/forecast-alarm.ts): a notification when the tank
 * is forecast to be empty, or full, within the days set, judged by the server on the same usage
 * forecast as the dashboard's usage pane, and delivered by the organisation's notification rules.
 */
export default function ForecastSection({ sensor, org, onSaved }: SectionProps) {
  const form = useSectionSave<ForecastAlarmForm>({
    sensor,
    orgId: org.id,
    initial: forecastFormOf(sensor),
    check: (v) => forecastFormToBody(v),
    valuesOf: (s) => forecastFormOf(s),
    successMessage: SETUP_NOTICES.forecastUpdated,
    failureMessage: saveFailure(SETUP_NOTICES.somethingWrong),
    onSaved,
  });
  const { values, errors, saving, edit } = form;
  const forecasts = useForecasts(org.id, sensor.id);
  const timeZone = org.locale.timezone;
  const set = (d: ForecastDirection, part: Partial<ForecastAlarmForm[ForecastDirection]>) => edit((f) => ({ ...f, [d]: { ...f[d], ...part } }));

  return (
    <form onSubmit={(e) => (e.preventDefault(), form.submit())} noValidate>
      <Stack gap="md" maw={620}>
        <Alert color="blue" icon={<IconInfoCircle />} variant="light">
          A notification opens when the tank is forecast to run empty (or fill up) within the days you set, at its average daily use over the last 13 weeks, and
          clears when the forecast moves past them. It is sent by email, SMS and webhooks like the sensor&apos;s other alarms.
        </Alert>
        <Text size="sm" data-testid="forecast-now">
          {forecastNowText(forecasts, timeZone)}
        </Text>
        {FORECAST_DIRECTIONS.map((d) => (
          <Group key={d} align="flex-start" gap="md" data-testid={`forecast-${d}`}>
            <Switch label={LABEL[d]} checked={values[d].on} onChange={(e) => set(d, { on: e.currentTarget.checked })} disabled={saving} w={220} mt={8} />
            <TextInput
              aria-label={`${LABEL[d]} days`}
              inputMode="numeric"
              rightSection={<Text size="xs" c="dimmed">days</Text>}
              rightSectionWidth={48}
              value={values[d].days}
              onChange={(e) => set(d, { days: e.currentTarget.value })}
              error={errors[d]}
              disabled={saving || !values[d].on}
              description={`1 to ${FORECAST_ALARM_MAX_DAYS}`}
              w={160}
            />
          </Group>
        ))}
        <Group>
          <UpdateButton saving={saving} />
        </Group>
      </Stack>
    </form>
  );
}

type UsageForecast = z.infer<typeof usageForecastSchema>;
type ForecastLoad = { status: 'loading' } | { status: 'ready'; forecasts: UsageForecast[] } | { status: 'error' };

/** The sensor's forecasts now, from the server's usage analysis (the same as the usage pane's). */
function useForecasts(orgId: string, sensorId: string): ForecastLoad {
  const [load, setLoad] = useState<ForecastLoad>({ status: 'loading' });
  useEffect(() => {
    const ctrl = new AbortController();
    const now = Date.now();
    api
      .get(`/organisations/${orgId}/sensors/${sensorId}/usage`, { query: { startTime: now - DAY_MS, endTime: now }, schema: usageSchema, signal: ctrl.signal })
      .then((u) => setLoad({ status: 'ready', forecasts: u.kind === 'volume' ? u.forecasts : [] }))
      .catch(() => !ctrl.signal.aborted && setLoad({ status: 'error' }));
    return () => ctrl.abort();
  }, [orgId, sensorId]);
  return load;
}

function forecastNowText(load: ForecastLoad, timeZone: string): string {
  if (load.status === 'loading') return 'Reading the forecast…';
  if (load.status === 'error') return 'The forecast could not be read just now; the alarm is still judged on the server.';
  const pick = (t: string) => load.forecasts.find((f) => f.target === t && f.days !== null && f.at !== null);
  const f = pick('empty') ?? pick('full');
  if (!f) return 'No forecast yet: it needs at least 3 days of measurements with use.';
  return `At its daily use the tank is forecast ${f.target} in ${aboutDays(f.days!)} (${shortDate(f.at!, timeZone)}).`;
}
