// For the tests that count requests against the real limiter on the wall clock (a server in
// another process, which no test clock reaches): the limiter's windows are the UTC minute and the
// UTC day, so a count that straddles a window's end starts again from the top and the expected
// "remaining" is off. Waiting out the end when it is near costs nothing most of the time.
import { setTimeout as sleep } from "node:timers/promises";

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Returns at once unless the current window (of `windowMs`, from the epoch, so UTC) ends within `neededMs`; then waits for the next one. */
export async function clearOfWindowEnd(neededMs: number, windowMs = MINUTE, now: () => number = Date.now): Promise<void> {
  const left = windowMs - (now() % windowMs);
  if (left < neededMs) await sleep(left + 50);
}
