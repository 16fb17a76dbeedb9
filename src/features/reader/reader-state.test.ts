import { describe, expect, it } from 'vitest';
import { ageText, capturesByReading, distanceM, nearestUnread, readingState, searchReadings, taskProgress } from './reader-state';
import type { Capture } from '../../../machines/reader-sync.machine';

const reading = (id: string, over: { completed?: boolean; address?: string; serial?: string; lat?: number | null; lng?: number | null } = {}) => ({
  id,
  completed: over.completed ?? false,
  meterInfo: { propertyAddress: over.address ?? `${id} Harbour Street`, serial: over.serial ?? `S-${id}`, latitude: over.lat ?? null, longitude: over.lng ?? null } as never,
});
const capture = (readingId: string, status: Capture['status'], at = 1): Capture => ({ id: `k-${readingId}-${at}`, orgId: 'o', taskId: 't', readingId, body: { value: 1, recordedAt: at }, capturedAt: at, status, attempts: 0, refusal: null });

// issue 33 "Tasks" and "The walk"
describe('reader state', () => {
  it('progress and readings left count what the server had and my captures; a refused capture is neither left to read nor done', () => {
    const rs = [reading('1', { completed: true }), reading('2'), reading('3'), reading('4')];
    const by = capturesByReading([capture('2', 'waiting'), capture('3', 'refused')]);
    expect(rs.map((r) => readingState(r, by))).toEqual(['recorded', 'waiting', 'refused', 'unread']);
    expect(taskProgress(rs, by)).toEqual({ done: 2, total: 4, left: 1, refused: 1, percent: 50 });
    // the latest capture of a reading is the one shown
    expect(readingState(reading('2'), capturesByReading([capture('2', 'refused', 1), capture('2', 'sent', 2)]))).toBe('sent');
  });

  it('search by address or serial, case and spacing ignored', () => {
    const rs = [reading('1', { address: '12 Upland  Road' }), reading('2', { serial: 'AB1234' }), reading('3')];
    expect(searchReadings(rs, 'upland road').map((r) => r.id)).toEqual(['1']);
    expect(searchReadings(rs, 'ab12').map((r) => r.id)).toEqual(['2']);
    expect(searchReadings(rs, '  ').length).toBe(3);
  });

  it('the nearest unread meter with a location', () => {
    const here = { latitude: -41.29, longitude: 174.78 };
    const rs = [reading('near-read', { lat: -41.2901, lng: 174.78, completed: true }), reading('far', { lat: -41.3, lng: 174.78 }), reading('near', { lat: -41.291, lng: 174.78 }), reading('nowhere')];
    const n = nearestUnread(rs, new Map(), here)!;
    expect(n.reading.id).toBe('near');
    expect(Math.round(n.metres)).toBe(111);
    expect(Math.round(distanceM(here, { latitude: -41.3, longitude: 174.78 }))).toBe(1112);
  });

  it('the age of a download', () => {
    expect(ageText(30_000)).toBe('just now');
    expect(ageText(5 * 60_000)).toBe('5 min ago');
    expect(ageText(3 * 3_600_000)).toBe('3 h ago');
    expect(ageText(49 * 3_600_000)).toBe('2 days ago');
  });
});
