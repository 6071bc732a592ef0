// The fast lane shares each worker's modules and globals between files (isolate: false). A file
// that leaves fake timers installed would hang whichever file runs next in that worker on its
// first real wait: this fails the file that left them, and puts the real timers back.
import { afterAll, vi } from "vitest";

afterAll(() => {
  if (!vi.isFakeTimers()) return;
  vi.useRealTimers();
  throw new Error("this file left fake timers installed: call vi.useRealTimers() in its afterEach");
});
