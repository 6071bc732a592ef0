// When a quota window starts afresh, for a person: the clock time where they are and in UTC (the
// windows are UTC-aligned, so the day turns at 00:00 UTC, which is rarely midnight locally).

/** "at 00:00 UTC (in 25 min)", or "at 01:00 local, 00:00 UTC (in 25 min)" where the zone is not UTC's. */
export function resetPhrase(atMs: number, nowMs: number, timeZone?: string): string {
  const local = clock(atMs, timeZone);
  const utc = clock(atMs, "UTC");
  const at = local === utc ? `${utc} UTC` : `${local} local, ${utc} UTC`;
  return `at ${at} (in ${within(atMs - nowMs)})`;
}

/** "42 s", "25 min", "3 h 46 min". */
export function within(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

function clock(ms: number, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(ms));
}
