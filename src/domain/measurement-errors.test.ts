import { describe, expect, it } from 'vitest';
import { errorLabel, sortAndFilterErrors, summariseErrors } from './measurement-errors';

const e = (code: string, time: number) => ({ id: `${code}-${time}`, code, time });

describe('measurement error codes (monitoring-client 8)', () => {
  it('labels E1 Bad Sensor, E2 Too Far, E3 Too Close, E4 Gradient, E9 Out of Range', () => {
    expect(['E1', 'E2', 'E3', 'E4', 'E9'].map((c) => errorLabel(c))).toEqual(['Bad Sensor', 'Too Far', 'Too Close', 'Gradient', 'Out of Range']);
  });
  it('labels E5 Nothing Found for radar sensors only, and unknown codes Unknown', () => {
    expect(errorLabel('E5', 'LS1-R')).toBe('Nothing Found');
    expect(errorLabel('E5', 'LS1')).toBe('Unknown');
    expect(errorLabel('E7')).toBe('Unknown');
    expect(errorLabel('3')).toBe('Too Close');
  });
});

describe('error sort and filter (monitoring-client 4)', () => {
  const list = [e('E1', 1), e('E4', 3), e('E3', 2), e('E2', 4)];
  it('sorts by time descending by default, ascending on request', () => {
    expect(sortAndFilterErrors(list).map((x) => x.time)).toEqual([4, 3, 2, 1]);
    expect(sortAndFilterErrors(list, 'None', 'asc').map((x) => x.time)).toEqual([1, 2, 3, 4]);
  });
  it('filters to Bad Sensor, Gradient, Too Close, Too Far and Bad Position', () => {
    expect(sortAndFilterErrors(list, 'Bad Sensor').map((x) => x.code)).toEqual(['E1']);
    expect(sortAndFilterErrors(list, 'Gradient').map((x) => x.code)).toEqual(['E4']);
    expect(sortAndFilterErrors(list, 'Too Close').map((x) => x.code)).toEqual(['E3']);
    expect(sortAndFilterErrors(list, 'Too Far').map((x) => x.code)).toEqual(['E2']);
    expect(sortAndFilterErrors(list, 'Bad Position').map((x) => x.code)).toEqual(['E2', 'E3']);
  });
});

describe('error analysis summary (monitoring-client 9: average frequency needs more than 2 errors)', () => {
  it('counts per code, most frequent first', () => {
    expect(summariseErrors([e('E2', 1), e('E1', 2), e('E2', 3)]).counts).toEqual([
      { code: 'E2', label: 'Too Far', count: 2 },
      { code: 'E1', label: 'Bad Sensor', count: 1 },
    ]);
  });
  it('gives no average frequency for 2 errors and the mean gap for 3', () => {
    expect(summariseErrors([e('E1', 0), e('E1', 60_000)]).averageIntervalMs).toBeUndefined();
    expect(summariseErrors([e('E1', 0), e('E1', 60_000), e('E1', 180_000)]).averageIntervalMs).toBe(90_000);
  });
});
