export interface MemorySample {
  at: number;
  rssKb: number;
  newSpaceKb?: number;
}
export interface MemoryEnd {
  rssKb: number;
  youngKb: number;
  samples: number;
}
export interface MemoryGrowth {
  warmupMs: number;
  youngKb: number;
  start: MemoryEnd;
  end: MemoryEnd;
  growth: number;
  comparable: boolean;
  why?: string;
}
export const END_SAMPLES: number;
export const MIN_MATCHED: number;
export const SETTLED_SCRAPES: number;
export function rssGrowth(samples: readonly MemorySample[], options: { readyMs: number; durationMs: number }): MemoryGrowth;
