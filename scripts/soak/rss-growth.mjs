// The soak's memory verdict: RSS growth after warm-up, compared at matched points of V8's cycle.
//
// V8 sizes its young generation (new space) itself, between 1 and 32 MiB on Node 20: it doubles
// it once enough bytes have survived scavenges, and shrinks it at a memory-reducing full GC (its
// memory reducer runs one ~100 s after a full GC when no other came, so about 105 s into a
// soak). Under the soak's load it is back at 32 MiB a few minutes later and stays there. An RSS
// sample taken while it regrows reads up to 28 MiB lower than one taken after, with no data
// grown at all. So the warm-up lasts until the process holds its working configuration (the
// event backlog full, and new space back at the largest size the run sampled for 30 s), and
// each end is the median RSS of the first (last) minute of samples taken while new space had
// that size, within the first (last) quarter of what follows. Data that really grows (old space,
// Buffers, native memory) shows whole; a run whose ends have too few such samples fails rather
// than being compared at unlike points.

/** Paired samples (10 s apart) whose median is each end: a minute, longer than the old-space cycle seen. */
export const END_SAMPLES = 6;
/** Samples needed at each end. */
export const MIN_MATCHED = 3;
/** Consecutive paired samples (one per scrape, 10 s) at the working size that end the warm-up. */
export const SETTLED_SCRAPES = 3;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)];
};

/**
 * RSS growth between the two ends of the steady part of a run.
 * `samples`: [{ at (ms), rssKb, newSpaceKb? }] in time order (newSpaceKb on the samples paired
 * with a scrape); `readyMs`: when the data reached its steady size (the event backlog full, at
 * least a fifth of the run); `durationMs`: the run's length. The warm-up never exceeds half of it.
 * Returns { warmupMs, youngKb, start, end, growth, comparable, why? }, start and end being
 * { rssKb, youngKb, samples } (youngKb: the median new space of those samples).
 */
export function rssGrowth(samples, { readyMs, durationMs }) {
  const paired = samples.filter((sample) => sample.newSpaceKb !== undefined);
  const youngKb = Math.max(...paired.map((sample) => sample.newSpaceKb));
  const warmupMs = Math.min(durationMs / 2, settledAt(paired, readyMs, youngKb) ?? Infinity);
  const steady = samples.filter((sample) => sample.at >= warmupMs);
  const quarter = (durationMs - warmupMs) / 4;
  const atWorkingSize = (sample) => sample.newSpaceKb === youngKb;
  const first = steady.filter((sample) => sample.at < warmupMs + quarter);
  const last = steady.filter((sample) => sample.at >= durationMs - quarter);
  const start = summarize(first.filter(atWorkingSize).slice(0, END_SAMPLES));
  const end = summarize(last.filter(atWorkingSize).slice(-END_SAMPLES));
  const growth = end.rssKb / start.rssKb - 1;
  const comparable = start.samples >= MIN_MATCHED && end.samples >= MIN_MATCHED;
  const why = comparable
    ? undefined
    : `new space at ${Math.round(youngKb / 1024)} MiB in ${start.samples} samples of the first quarter after warm-up and ${end.samples} of the last (${MIN_MATCHED} needed each): run longer`;
  return { warmupMs, youngKb, start, end, growth, comparable, why };
}

/** The first paired sample at or after `readyMs` that ends SETTLED_SCRAPES in a row at `youngKb`. */
function settledAt(paired, readyMs, youngKb) {
  for (let i = SETTLED_SCRAPES - 1; i < paired.length; i++) {
    const window = paired.slice(i - SETTLED_SCRAPES + 1, i + 1);
    if (paired[i].at >= readyMs && window.every((sample) => sample.newSpaceKb === youngKb)) return paired[i].at;
  }
  return undefined;
}

function summarize(matched) {
  return {
    rssKb: median(matched.map((sample) => sample.rssKb)),
    youngKb: median(matched.map((sample) => sample.newSpaceKb)),
    samples: matched.length,
  };
}
