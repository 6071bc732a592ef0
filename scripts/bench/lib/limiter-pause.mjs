// Runs in a process of its own: the file-mode limiter with 100,000 subjects under steady traffic,
// through a UTC midnight, measuring how long its saves hold the event loop. Prints one JSON line.
// argv: <bundled limiter module> <directory for the counters files> <seconds> [no-saves|no-limiter]
// With `no-saves` the same limiter and traffic run without a persister: what the saves add to the
// pause is the difference between the two. With `no-limiter` the traffic's subjects are made and
// dropped, and no limiter exists: what is left is the pause of a process that wakes every 5 ms
// and works ~0.1 ms, on this machine.
import { join } from "node:path";
import { stat } from "node:fs/promises";
import { measureLoop } from "./loop-stalls.mjs";

const [modulePath, dir, secondsText, mode] = process.argv.slice(2);
const { MemoryRateLimiter, openMemoryRateLimiter, filePersister } = await import(modulePath);
const saving = mode === undefined;
const limiting = mode !== "no-limiter";
const SUBJECTS = 100_000;
const LIMITS = { perMinute: 1_000_000, perDay: 10_000_000 };
const seconds = Number(secondsText);
// The clock starts 2 s before a UTC midnight, so the new day's sweep falls inside the measurement.
const offset = Math.ceil(Date.now() / 86_400_000) * 86_400_000 - 2_000 - Date.now() - 1_000;
const now = () => Date.now() + offset;

const file = join(dir, "bench.json.limits.json");
const limiter = saving
  ? await openMemoryRateLimiter({ persister: filePersister(file), now, warn: (m) => console.error(m) })
  : new MemoryRateLimiter({ now });
let made = 0;
const decide = limiting ? (subject) => limiter.decide(subject, LIMITS) : (subject) => (made += subject.length);
for (let i = 0; i < SUBJECTS; i++) decide(`ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`);
await limiter.flush();
// Those 100,000 subjects were made in one burst, and V8 collects such a burst's garbage with one
// full, non-incremental mark-compact (6 ms here) the first time old space fills, a second into
// the measurement: a pause of this set-up, not of the saves. A server that gathered its subjects
// over hours collects them incrementally. So the measurement starts from a collected heap.
globalThis.gc();

// 20,000 decisions a second over random subjects, and a new subject every tick.
let fresh = SUBJECTS;
const traffic = setInterval(() => {
  for (let j = 0; j < 100; j++) decide(`ip:10.${(Math.random() * 2) | 0}.${(Math.random() * 256) | 0}.${(Math.random() * 256) | 0}`);
  decide(`ip:11.${fresh >> 16}.${(fresh >> 8) & 255}.${fresh++ & 255}`);
}, 5);
const measured = await measureLoop(seconds);
clearInterval(traffic);
await limiter.close();
console.log(JSON.stringify({ ...measured, stateBytes: saving ? (await stat(file)).size : 0, made }));
