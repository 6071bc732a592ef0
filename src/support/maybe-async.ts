// Values that are ready now or later. The request path is synchronous from end to end when every
// engine it asks answers from memory (a kept listing over the file store): each `await` it does
// not need costs a promise, a microtask and the code that runs them, on every request.

export type MaybePromise<T> = T | Promise<T>;

/** Whether `value` is still to come (any thenable, as h3 checks its handlers' results). */
export function isPending<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** `next(value)` now when the value is ready, else once it is. */
export function whenReady<T, R>(value: MaybePromise<T>, next: (ready: T) => MaybePromise<R>): MaybePromise<R> {
  return isPending(value) ? value.then(next) : next(value);
}
