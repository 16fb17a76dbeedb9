import { useEffect, useState } from 'react';
import { api } from './api';
import { clockOffset } from '../domain/clock-offset';

// One offset per page load: GET /tools/server-time corrects a wrong device clock (5 s or more).
let offset = 0;
let asked: Promise<void> | undefined;
function askServerTime() {
  asked ??= (async () => {
    const sentAt = Date.now();
    const { millis } = await api.get<{ millis: number }>('/tools/server-time');
    offset = clockOffset(millis, sentAt, Date.now());
  })().catch(() => {
    asked = undefined; // try again next time; until then the local clock stands
  });
  return asked;
}

/** Server-corrected now. */
export const serverNow = () => Date.now() + offset;

/** Re-renders every `everyMs` with the server-corrected time (the dashboard's refresh timers, the remote-task estimate). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    void askServerTime().then(() => setNow(serverNow()));
    const id = setInterval(() => setNow(serverNow()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
