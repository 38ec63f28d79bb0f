/** Labels of the two shortest spans, which Intl has no words for. */
export interface RelativeTimeLabels {
  /** Under 30 s. */
  justNow: string;
  /** From 30 s to under a minute. */
  underAMinute: string;
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/** One formatter per language: building one costs far more than formatting, and a long invites list formats thousands. */
const formatters = new Map<string, Intl.RelativeTimeFormat>();
function formatterFor(locale: string): Intl.RelativeTimeFormat {
  let format = formatters.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: "always", style: "short" });
    formatters.set(locale, format);
  }
  return format;
}

/**
 * How long ago an invite was updated: under 30 s 'just now', under 1 min '< 1m', then whole minutes, whole hours
 * (under 24), then whole days, worded by `Intl.RelativeTimeFormat` in the user's language. A time in the future
 * (a clock ahead of ours) counts as just now.
 */
export function formatRelativeTime(updatedAt: Date, nowMs: number, locale: string, labels: RelativeTimeLabels): string {
  const seconds = Math.max(0, (nowMs - updatedAt.getTime()) / 1000);
  if (seconds < 30) return labels.justNow;
  if (seconds < MINUTE) return labels.underAMinute;
  const format = formatterFor(locale);
  if (seconds < HOUR) return format.format(-Math.floor(seconds / MINUTE), "minute");
  if (seconds < DAY) return format.format(-Math.floor(seconds / HOUR), "hour");
  return format.format(-Math.floor(seconds / DAY), "day");
}
