// The grammar of faults on purpose (`serve --chaos`, PUT /v1/admin/chaos), parsed the same by the
// server and the client: `latency=200ms@10%,status=503@2%,reset=1%`. Zod-free, for the client.

/** The statuses an injected fault may answer: those every operation documents already. */
export const CHAOS_STATUSES = [429, 500, 503] as const;

export type ChaosFault =
  | { kind: "latency"; ms: number; rate: number }
  | { kind: "status"; status: (typeof CHAOS_STATUSES)[number]; rate: number }
  | { kind: "reset"; rate: number };

/** A spec that cannot be used; the message names the part. */
export class ChaosSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChaosSpecError";
  }
}

const MAX_LATENCY_MS = 60_000;

/** The faults of `spec`; "" or "off" is none. Each kind at most once; rates are fractions (0.1 for 10%). */
export function parseChaosSpec(spec: string): ChaosFault[] {
  const text = spec.trim();
  if (text === "" || text === "off") return [];
  const faults = text.split(",").map((part) => parsePart(part.trim()));
  const kinds = new Set<string>();
  for (const fault of faults) {
    if (kinds.has(fault.kind)) throw new ChaosSpecError(`"${fault.kind}" is given twice: each kind of fault at most once`);
    kinds.add(fault.kind);
  }
  return faults;
}

/** The spec as a person writes it: parseChaosSpec(formatChaosSpec(x)) gives x back. */
export function formatChaosSpec(faults: readonly ChaosFault[]): string {
  if (faults.length === 0) return "off";
  const percent = (rate: number) => `${Number((rate * 100).toFixed(4))}%`;
  return faults
    .map((fault) =>
      fault.kind === "latency" ? `latency=${fault.ms}ms@${percent(fault.rate)}` : fault.kind === "status" ? `status=${fault.status}@${percent(fault.rate)}` : `reset=${percent(fault.rate)}`,
    )
    .join(",");
}

function parsePart(part: string): ChaosFault {
  const shown = JSON.stringify(part.slice(0, 60));
  const match = /^(\w+)=(.*)$/.exec(part);
  if (!match) throw new ChaosSpecError(`${shown}: each part is kind=value (latency=200ms@10%, status=503@2%, reset=1%)`);
  const [, kind, value] = match as unknown as [string, string, string];
  if (kind === "reset") return { kind, rate: rateOf(value, shown) };
  if (kind !== "latency" && kind !== "status") throw new ChaosSpecError(`${shown}: unknown kind "${kind.slice(0, 20)}" (latency, status or reset)`);
  const [amount, rate, extra] = value.split("@");
  if (rate === undefined || extra !== undefined) throw new ChaosSpecError(`${shown}: ${kind} needs a rate, as ${kind}=${kind === "latency" ? "200ms" : "503"}@10%`);
  if (kind === "latency") return { kind, ms: latencyOf(amount!, shown), rate: rateOf(rate, shown) };
  return { kind, status: statusOf(amount!, shown), rate: rateOf(rate, shown) };
}

function rateOf(text: string, shown: string): number {
  const match = /^(\d{1,3}(?:\.\d{1,4})?)%$/.exec(text);
  const percent = match ? Number(match[1]) : NaN;
  if (!(percent >= 0 && percent <= 100)) throw new ChaosSpecError(`${shown}: the rate must be a percentage from 0% to 100%`);
  return percent / 100;
}

function latencyOf(text: string, shown: string): number {
  const match = /^(\d{1,6})(ms|s)$/.exec(text);
  const ms = match ? Number(match[1]) * (match[2] === "s" ? 1000 : 1) : NaN;
  if (!(ms >= 0 && ms <= MAX_LATENCY_MS)) throw new ChaosSpecError(`${shown}: the latency must be a duration up to 60s, as 200ms or 2s`);
  return ms;
}

function statusOf(text: string, shown: string): (typeof CHAOS_STATUSES)[number] {
  const status = CHAOS_STATUSES.find((candidate) => String(candidate) === text);
  if (status === undefined) throw new ChaosSpecError(`${shown}: the status must be one of ${CHAOS_STATUSES.join(", ")}`);
  return status;
}
