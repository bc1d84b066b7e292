/**
 * UTC calendar days as `YYYY-MM-DD` strings (the roll-up's key) and their boundaries.
 */

const DAY_MS = 86_400_000;

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The first millisecond of the UTC day after the one `ms` falls in. */
export function nextUtcMidnight(ms: number): number {
  return (Math.floor(ms / DAY_MS) + 1) * DAY_MS;
}

/** `day` moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return utcDay(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS);
}

/**
 * Splits the span [from, to) at UTC midnights: [day, seconds] for each day it touches, so time
 * watched across midnight counts on both days.
 */
export function secondsByDay(from: number, to: number): [string, number][] {
  const out: [string, number][] = [];
  let at = from;
  while (at < to) {
    const end = Math.min(to, nextUtcMidnight(at));
    out.push([utcDay(at), (end - at) / 1000]);
    at = end;
  }
  return out;
}
