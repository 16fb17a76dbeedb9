import { progressPercent, type MeterReading } from '../../contract/route.schema';
import type { Capture, CaptureStatus } from '../../../machines/reader-sync.machine';

/** Where a reading stands for the reader: read before the download, or the state of my capture of it, or still to read. */
export type ReadingState = 'recorded' | CaptureStatus | 'unread';

/** The latest capture of each reading (a refused one stays: the reader's copy with the server's reason). */
export function capturesByReading(captures: readonly Capture[]): Map<string, Capture> {
  const m = new Map<string, Capture>();
  for (const c of captures) {
    const prev = m.get(c.readingId);
    if (!prev || c.capturedAt >= prev.capturedAt) m.set(c.readingId, c);
  }
  return m;
}

export function readingState(r: Pick<MeterReading, 'id' | 'completed'>, byReading: Map<string, Capture>): ReadingState {
  const c = byReading.get(r.id);
  if (c) return c.status;
  return r.completed ? 'recorded' : 'unread';
}

/** Still to do: not recorded before, and not captured (a refused capture is done with, its reason shown). */
export const isLeft = (s: ReadingState) => s === 'unread';

/**
 * A task's progress on this device: what the server had plus my captures since. A refused capture
 * is neither left to walk to (its reason is shown on its meter) nor done: the server has no reading
 * of it, so it is counted apart until it is dismissed and read again.
 */
export function taskProgress(readings: readonly Pick<MeterReading, 'id' | 'completed'>[], byReading: Map<string, Capture>) {
  let left = 0;
  let refused = 0;
  for (const r of readings) {
    const s = readingState(r, byReading);
    if (isLeft(s)) left++;
    else if (s === 'refused') refused++;
  }
  const done = readings.length - left - refused;
  return { done, total: readings.length, left, refused, percent: progressPercent(done, readings.length) };
}

/** Readings whose address or meter serial contains the text (case and spacing ignored). */
export function searchReadings<R extends Pick<MeterReading, 'meterInfo'>>(readings: readonly R[], text: string): R[] {
  const q = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!q) return [...readings];
  return readings.filter((r) => r.meterInfo.propertyAddress.toLowerCase().replace(/\s+/g, ' ').includes(q) || r.meterInfo.serial.toLowerCase().includes(q));
}

const R = 6_371_000;
/** Great-circle distance in metres. */
export function distanceM(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLng = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/** The nearest unread meter with a known location to `here`, and how far it is. */
export function nearestUnread<T extends Pick<MeterReading, 'id' | 'completed' | 'meterInfo'>>(
  readings: readonly T[],
  byReading: Map<string, Capture>,
  here: { latitude: number; longitude: number },
): { reading: T; metres: number } | undefined {
  let best: { reading: T; metres: number } | undefined;
  for (const r of readings) {
    const { latitude, longitude } = r.meterInfo;
    if (latitude === null || longitude === null || !isLeft(readingState(r, byReading))) continue;
    const metres = distanceM(here, { latitude, longitude });
    if (!best || metres < best.metres) best = { reading: r, metres };
  }
  return best;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": how old a download is. */
export function ageText(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.floor(h / 24);
  return `${d} day${d === 1 ? '' : 's'} ago`;
}
