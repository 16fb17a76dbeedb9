/// <reference lib="webworker" />
/**
 * The first date formatter with a time zone in a page loads ICU's zone and locale data, 30 to 125
 * ms of one task (headless Chromium, 2 vCPU); ICU keeps what it loaded for the whole renderer
 * process, so a formatter made here first leaves the page's own first one under a millisecond.
 * The locales and fields are those the app formats with (src/domain/time-format.ts, time-zone.ts,
 * src/features/chart/tz-date.ts).
 */
for (const locale of ['en-NZ', 'en-US', 'en-GB']) {
  new Intl.DateTimeFormat(locale, { timeZone: 'Pacific/Auckland', year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }).format(0);
}
postMessage('warm');
