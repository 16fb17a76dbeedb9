/** Times as the user's display setting asks (Friendly or AmericanLocal), in the organisation's time zone. */
export type TimeDisplay = 'Friendly' | 'AmericanLocal';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(display: TimeDisplay, timeZone: string, withSeconds: boolean) {
  const key = `${display}|${timeZone}|${withSeconds}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(display === 'AmericanLocal' ? 'en-US' : 'en-NZ', {
      timeZone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: withSeconds ? '2-digit' : undefined,
      hour12: display === 'AmericanLocal',
    });
    formatters.set(key, f);
  }
  return f;
}

/** '10 Mar 2026, 14:05' (Friendly) or 'Mar 10, 2026, 2:05 PM' (AmericanLocal). */
export function formatTime(t: number, display: TimeDisplay = 'Friendly', timeZone = 'Pacific/Auckland', withSeconds = false): string {
  return formatter(display, timeZone, withSeconds).format(t);
}

const dmy = new Map<string, Intl.DateTimeFormat>();
/**
 * The setup area's dates (sensor-setup 9): DD/MM/YYYY HH:mm:ss in the time zone, unless the user
 * chose American dates in their display settings ('Mar 10, 2026, 2:05:09 PM').
 */
export function formatSetupTime(t: number, display: TimeDisplay = 'Friendly', timeZone = 'Pacific/Auckland'): string {
  if (display === 'AmericanLocal') return formatTime(t, display, timeZone, true);
  let f = dmy.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    dmy.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}:${p.second}`;
}

/** 'just now', '5 minutes ago', '3 hours ago', '2 days ago' (or 'in ...' for future times). */
export function timeAgo(t: number, now: number): string {
  const diff = now - t;
  const abs = Math.abs(diff);
  const unit = (n: number, u: string) => `${n} ${u}${n === 1 ? '' : 's'}`;
  let text: string;
  if (abs < 45_000) return 'just now';
  if (abs < 3600_000) text = unit(Math.max(1, Math.round(abs / 60_000)), 'minute');
  else if (abs < 86_400_000) text = unit(Math.round(abs / 3600_000), 'hour');
  else text = unit(Math.round(abs / 86_400_000), 'day');
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** A duration in ms as '2 h 5 min', '45 min', '30 s'. */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.round(h / 24)} days`;
}
