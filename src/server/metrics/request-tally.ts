// The per-request numbers, kept in plain arrays and handed to prom-client only when scraped.
// prom-client's own children hash their labels on every call, many times what an array index
// costs here, and metrics must stay a small share of a request.
import type { Metric, MetricObjectWithValues, MetricValue } from "prom-client";

interface Answers {
  method: string;
  status: string;
  count: number;
}

interface RouteTally {
  /**
   * Per method, then per status. Two lookups by keys the request already holds (node's method
   * string, whose hash V8 keeps, and a small integer) rather than one by `method + status`: that
   * key was a new string every request, hashed anew (~500 instructions, callgrind).
   */
  answers: Map<string, Map<number, Answers>>;
  /** Non-cumulative: buckets[i] counts durations in (bounds[i-1], bounds[i]]; the last is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A counter by route, method and status, and a duration histogram by route, exported on scrape. */
export class RequestTally {
  readonly #bounds: readonly number[];
  readonly #routes = new Map<string, RouteTally>();

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let tally = this.#routes.get(route);
    if (!tally) this.#routes.set(route, (tally = { answers: new Map(), buckets: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 }));
    let byStatus = tally.answers.get(method);
    if (!byStatus) tally.answers.set(method, (byStatus = new Map()));
    const answer = byStatus.get(status);
    if (answer) answer.count++;
    else byStatus.set(status, { method, status: String(status), count: 1 });
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > this.#bounds[bucket]!) bucket++;
    tally.buckets[bucket]!++;
    tally.sum += seconds;
    tally.count++;
  }

  /** prom-client metrics (registerMetric) that read this tally when scraped. */
  metrics(counter: { name: string; help: string }, histogram: { name: string; help: string }): Metric[] {
    return [
      scraped(counter.name, counter.help, "counter", () => this.#counterValues()),
      scraped(histogram.name, histogram.help, "histogram", () => this.#histogramValues(histogram.name)),
    ];
  }

  #counterValues(): MetricValue<string>[] {
    const values: MetricValue<string>[] = [];
    for (const [route, tally] of this.#routes) {
      for (const byStatus of tally.answers.values()) {
        for (const { method, status, count } of byStatus.values()) values.push({ labels: { route, method, status }, value: count });
      }
    }
    return values;
  }

  #histogramValues(name: string): MetricValue<string>[] {
    const values: MetricValue<string>[] = [];
    for (const [route, tally] of this.#routes) {
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += tally.buckets[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { le: bound, route }, value: cumulative } as MetricValue<string>);
      });
      values.push({ metricName: `${name}_bucket`, labels: { le: "+Inf", route }, value: tally.count } as MetricValue<string>);
      values.push({ metricName: `${name}_sum`, labels: { route }, value: tally.sum } as MetricValue<string>);
      values.push({ metricName: `${name}_count`, labels: { route }, value: tally.count } as MetricValue<string>);
    }
    return values;
  }
}

/** The smallest object prom-client's Registry formats: a name, help, type and get(). */
function scraped(name: string, help: string, type: "counter" | "histogram", read: () => MetricValue<string>[]): Metric {
  const get = async () => ({ name, help, type, aggregator: "sum", values: read() }) as unknown as MetricObjectWithValues<MetricValue<string>>;
  return { name, help, type, aggregator: "sum", get, reset: () => undefined } as unknown as Metric;
}
