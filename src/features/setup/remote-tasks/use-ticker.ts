import { useEffect, useState } from 'react';

/** The current time, re-read every `everyMs` (the estimate refreshes every 60 s). */
export function useTicker(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
