import { describe, expect, it } from 'vitest';
import { DEFAULT_TASK_FILTERS, hoursMinutes, isExceptionRow, progressPercent, startCase, taskMatches, timeTakenMs } from './route-format';
import type { RouteTask } from '../../contract/route.schema';

const task = (over: Partial<RouteTask> = {}): RouteTask => ({
  id: 't',
  organisationId: 'o',
  taskNumber: 1042,
  routeName: 'KAR-04',
  group: 'West',
  suburb: 'Karori',
  type: 'urban',
  isSpecial: false,
  assignedTo: null,
  iterationNumber: '3',
  startedAt: null,
  completedAt: null,
  exported: false,
  completedReadings: 0,
  totalReadings: 10,
  totalExceptions: 0,
  estTimeSpent: null,
  createdAt: 0,
  ...over,
});

describe('service-route rules (organisation-and-routes 4)', () => {
  it('percent rounds up, except above 99 where it rounds down', () => {
    expect(progressPercent(0, 30)).toBe(0);
    expect(progressPercent(12, 30)).toBe(40);
    expect(progressPercent(1, 3)).toBe(34);
    expect(progressPercent(1, 1000)).toBe(1);
    expect(progressPercent(995, 1000)).toBe(99); // 99.5 is over 99: down
    expect(progressPercent(999, 1000)).toBe(99);
    expect(progressPercent(990, 1000)).toBe(99); // exactly 99: up is 99
    expect(progressPercent(10, 10)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
  });

  it('time taken: estTimeSpent when valid, else completed - started, else now - started; "Xh Ym"', () => {
    const H = 3_600_000;
    expect(timeTakenMs(task({ estTimeSpent: 2 * H, startedAt: 0, completedAt: 5 * H }), 9 * H)).toBe(2 * H);
    expect(timeTakenMs(task({ estTimeSpent: -1, startedAt: H, completedAt: 4 * H }), 9 * H)).toBe(3 * H);
    expect(timeTakenMs(task({ startedAt: H }), 2.5 * H)).toBe(1.5 * H);
    expect(timeTakenMs(task(), 9 * H)).toBeNull();
    expect(hoursMinutes(1.5 * H + 59_000)).toBe('1h 30m');
    expect(hoursMinutes(26 * H + 5 * 60_000)).toBe('26h 5m');
  });

  it('the progress filter follows the four rules; the default leaves exported tasks out', () => {
    const exported = task({ exported: true, startedAt: 1, completedAt: 2 });
    const complete = task({ startedAt: 1, completedAt: 2 });
    const active = task({ startedAt: 1 });
    const waiting = task();
    expect([exported, complete, active, waiting].map((t) => taskMatches(t, DEFAULT_TASK_FILTERS))).toEqual([false, true, true, true]);
    expect(taskMatches(active, { ...DEFAULT_TASK_FILTERS, progress: ['Active'], routeName: 'kar', group: 'WE', taskNumber: '104' })).toBe(true);
    expect(taskMatches(active, { ...DEFAULT_TASK_FILTERS, classification: ['rural'] })).toBe(false);
    expect(taskMatches(active, { ...DEFAULT_TASK_FILTERS, assignee: ['__unassigned__'] })).toBe(true);
  });

  it('addresses are start-cased; exception rows as 7.3 says', () => {
    expect(startCase('12 HARBOUR VIEW ROAD')).toBe('12 Harbour View Road');
    const r = { completed: true, exception: 'NoError' as const, cantReadCode: null, commentCode: null, serviceRequired: false };
    expect(isExceptionRow(r)).toBe(false);
    expect(isExceptionRow({ ...r, serviceRequired: true })).toBe(true);
    expect(isExceptionRow({ ...r, exception: 'HighConsumption' })).toBe(true);
    expect(isExceptionRow({ ...r, completed: false, exception: 'HighConsumption' })).toBe(false);
  });
});
