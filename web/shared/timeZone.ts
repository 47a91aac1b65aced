/**
 * The browser's IANA time zone, which the board's days, the reports' buckets and the exports' dates are
 * reckoned in. Asking Intl for it is slow the first time in a page (Intl's start: 20-80 ms in Chromium at
 * full speed, measured), so it is asked once a page, and the board view asks it not at all while the
 * device's clock reads as it did when it last asked (docs/decisions/0762).
 */
const KEPT = 'checkboard-time-zone';

let zone: string | undefined;
/** The zone `rememberedTimeZone` gave this page: read from storage once, not on every render. */
let remembered: string | undefined;

/** The browser's IANA time zone, asked of Intl once a page. */
export const browserTimeZone = () => (zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/**
 * How the device's clock reads the zone, without Intl: the offset and the zone's own name at the start of
 * January and of July this year (say `GMT+0100 (Central European Standard Time)` and `… Summer Time`). Two
 * zones that read alike in both are alike this year but for the day their clocks change, if that differs.
 */
function clockReading(now = new Date()): string {
  const reading = (month: number) =>
    new Date(now.getFullYear(), month, 1).toString().replace(/^.*?GMT/, 'GMT');
  return `${reading(0)}|${reading(6)}`;
}

/**
 * The time zone the board view groups its days by: the one this device last found, while its clock reads
 * the same; else asked of Intl and kept with that reading.
 */
export function rememberedTimeZone(): string {
  if (zone) return zone;
  if (remembered) return remembered;
  const reading = clockReading();
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEPT) ?? 'null') as {
      zone?: unknown;
      reading?: unknown;
    } | null;
    if (kept && typeof kept.zone === 'string' && kept.zone && kept.reading === reading)
      return (remembered = kept.zone);
  } catch {
    // Nothing kept, or storage denied: asked below.
  }
  const found = browserTimeZone();
  try {
    window.localStorage.setItem(KEPT, JSON.stringify({ zone: found, reading }));
  } catch {
    // Storage full or denied: asked again on the next page.
  }
  return found;
}
