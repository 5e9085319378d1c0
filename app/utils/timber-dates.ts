// Quick date ranges of the timber dashboard (today, week, month, 3 and 6 months, year), as
// yyyy-MM-dd pairs in the user's time zone. A range is "selected" only while the filter's dates
// still equal it, so editing a date clears the highlight (the spec's rule).

export const QUICK_RANGES = ["today", "week", "month", "3months", "6months", "year"] as const;
export type QuickRange = (typeof QUICK_RANGES)[number];
export const DEFAULT_RANGE: QuickRange = "3months";

/** Today's date in the time zone as yyyy-MM-dd. */
export function todayIn(timeZone: string, now = new Date()) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  return parts; // en-CA formats as yyyy-MM-dd
}

function shift(iso: string, { days = 0, months = 0 }: { days?: number; months?: number }) {
  const [y, m, d] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1 + months, d + days));
  // A month back from 31 March is the last day of February, not 3 March.
  if (months && date.getUTCDate() !== d) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

export function quickRangeDates(range: QuickRange, timeZone: string, now = new Date()) {
  const end = todayIn(timeZone, now);
  const start =
    range === "today"
      ? end
      : range === "week"
        ? shift(end, { days: -7 })
        : range === "month"
          ? shift(end, { months: -1 })
          : range === "3months"
            ? shift(end, { months: -3 })
            : range === "6months"
              ? shift(end, { months: -6 })
              : shift(end, { months: -12 });
  return { start, end };
}

export function matchingRange(
  start: string | undefined,
  end: string | undefined,
  timeZone: string,
  now = new Date(),
): QuickRange | null {
  if (!start || !end) return null;
  return (
    QUICK_RANGES.find((r) => {
      const d = quickRangeDates(r, timeZone, now);
      return d.start === start && d.end === end;
    }) ?? null
  );
}

/** A wall-clock "yyyy-MM-ddTHH:mm" in the time zone to the instant it names. */
export function zonedLocalToDate(local: string, timeZone: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$/.test(local)) return null;
  const guess = new Date(`${local.replace(" ", "T")}Z`);
  if (Number.isNaN(guess.getTime())) return null;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(guess)
      .map((p) => [p.type, p.value]),
  );
  const asZone = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return new Date(guess.getTime() - (asZone - guess.getTime()));
}

/** The instant as "yyyy-MM-ddTHH:mm" on the time zone's wall clock (for datetime-local inputs). */
export function dateToZonedLocal(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}
