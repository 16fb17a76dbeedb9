import { describe, expect, it } from 'vitest';
import { forecastConditions, forecastFormOf, forecastFormToBody, hasVolumeConversion } from './forecast-alarm';
import { SETUP_RULES } from './setup-messages';

const f = (target: string, days: number | null, daysUsed = 30) => ({ target, days, at: days === null ? null : 1000, daysUsed });

describe('the forecast alarm (issue 38, beyond the spec)', () => {
  it('is active while the tank is forecast to reach empty (or full) within the days', () => {
    const [empty, full] = forecastConditions({ emptyWithinDays: 7, fullWithinDays: 2 }, [f('empty', 6.9), f('low', 3), f('full', 2.5)]);
    expect(empty).toMatchObject({ key: 'forecast:empty', active: true, withinDays: 7, days: 6.9 });
    expect(full).toMatchObject({ key: 'forecast:full', active: false, days: 2.5 });
    expect(forecastConditions({ emptyWithinDays: 7, fullWithinDays: null }, [f('empty', 7)])[0].active).toBe(true);
    expect(forecastConditions({ emptyWithinDays: 7, fullWithinDays: null }, [f('empty', 7.01)])[0].active).toBe(false);
  });
  it('is inactive when off, when the tank is not heading that way, or has no full level; undecided with under 3 days of history', () => {
    expect(forecastConditions({ emptyWithinDays: null, fullWithinDays: null }, [f('empty', 1)]).map((c) => c.active)).toEqual([false, false]);
    expect(forecastConditions(null, [f('empty', 1)]).map((c) => c.active)).toEqual([false, false]);
    // a filling tank has no days until empty; no maxLevel means no 'full' forecast at all
    expect(forecastConditions({ emptyWithinDays: 7, fullWithinDays: 7 }, [f('empty', null)]).map((c) => c.active)).toEqual([false, false]);
    expect(forecastConditions({ emptyWithinDays: 7, fullWithinDays: null }, [f('empty', null, 2)])[0].active).toBeUndefined();
  });
  it('reads its form from the sensor and checks whole days from 1 to 60 only where switched on', () => {
    expect(forecastFormOf({})).toEqual({ empty: { on: false, days: '7' }, full: { on: false, days: '3' } });
    expect(forecastFormOf({ forecastAlarm: { emptyWithinDays: 10, fullWithinDays: null } }).empty).toEqual({ on: true, days: '10' });
    expect(forecastFormToBody({ empty: { on: true, days: ' 10 ' }, full: { on: false, days: 'x' } })).toEqual({ body: { forecastAlarm: { emptyWithinDays: 10, fullWithinDays: null } }, errors: {} });
    for (const bad of ['', '0', '61', '2.5', 'seven']) {
      expect(forecastFormToBody({ empty: { on: true, days: bad }, full: { on: false, days: '' } }).errors).toEqual({ empty: SETUP_RULES.FORECAST_DAYS_INVALID });
    }
  });
  it('needs a tank volume conversion', () => {
    expect(hasVolumeConversion({ conversionConfigs: [{ type: 'VOLUME_CYLINDER', diameter: 2 }] as never })).toBe(true);
    expect(hasVolumeConversion({ conversionConfigs: [{ type: 'WEIR_FLOW_VN' }] as never })).toBe(false);
    expect(hasVolumeConversion({ conversionConfigs: [] })).toBe(false);
  });
});
