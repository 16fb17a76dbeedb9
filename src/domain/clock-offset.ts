/** Offsets under this are ignored (monitoring-client 7, 9). */
export const CLOCK_OFFSET_THRESHOLD_MS = 5000;

/**
 * The correction to add to the local clock from GET /tools/server-time, taking the midpoint of
 * the request as when the server read its clock; 0 when the difference is under 5 s.
 */
export function clockOffset(serverMillis: number, sentAt: number, receivedAt: number): number {
  const local = sentAt + (receivedAt - sentAt) / 2;
  const offset = Math.round(serverMillis - local);
  return Math.abs(offset) < CLOCK_OFFSET_THRESHOLD_MS ? 0 : offset;
}
