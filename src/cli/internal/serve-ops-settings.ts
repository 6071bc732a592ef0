// `serve`'s operating settings: log format, proxies, metrics. Flags win over the
// environment, which wins over the defaults, as for every other `serve` setting.
import type { ServeOptions } from "../../server/serve.js";
import { TICKET_SECRET_MIN_LENGTH } from "../../contract/events.js";
import { parsePublicUrl } from "../../support/public-url.js";
import { messageOf } from "../../support/error-text.js";
import { parseTrustProxy } from "../../support/trust-proxy.js";
import { UsageError } from "../errors.js";
import { parseCorsOrigins } from "./cors-origins.js";
import { durationFlag } from "./duration.js";
import { integerFlag } from "./flags.js";

export interface ServeOpsFlags {
  logFormat?: string;
  trustProxy?: string;
  metricsPort?: string;
  metricsHost?: string;
  metricsToken?: string;
  corsOrigin?: string;
  publicUrl?: string;
  webhookRetryFor?: string;
  webhookMaxInFlight?: string;
  webhooksAllowPrivate?: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;
type OpsOptions = Pick<ServeOptions, "logFormat" | "trustProxy" | "metricsPort" | "metricsHost" | "metricsToken" | "corsOrigins" | "publicUrl" | "ticketSecret" | "webhooks">;

/** --webhook-max-in-flight's ceiling: past it a busy endpoint would hold hundreds of sockets of one server. */
const MAX_IN_FLIGHT_LIMIT = 256;

const pick = (flag: string | undefined, variable: string | undefined) => flag ?? (variable === "" ? undefined : variable);

/**
 * The log format defaults to text where a person reads stderr (a terminal) and JSON where a
 * program does (systemd's journal, a container runtime, a pipe).
 */
export function resolveServeOps(flags: ServeOpsFlags, env: Env, isStderrTTY: boolean): OpsOptions {
  const options: OpsOptions = { logFormat: logFormat(pick(flags.logFormat, env.PETSTORE_LOG_FORMAT), isStderrTTY) };
  const trust = pick(flags.trustProxy, env.PETSTORE_TRUST_PROXY);
  if (trust !== undefined) options.trustProxy = trustProxy(trust);
  const port = pick(flags.metricsPort, env.PETSTORE_METRICS_PORT);
  if (port !== undefined) options.metricsPort = metricsPort(port);
  const host = pick(flags.metricsHost, env.PETSTORE_METRICS_HOST);
  if (host !== undefined) {
    if (port === undefined) throw new UsageError("--metrics-host needs --metrics-port");
    options.metricsHost = host;
  }
  const token = pick(flags.metricsToken, env.PETSTORE_METRICS_TOKEN);
  if (token !== undefined) {
    if (token.length < 16) throw new UsageError("--metrics-token must be at least 16 characters long");
    options.metricsToken = token;
  }
  const cors = pick(flags.corsOrigin, env.PETSTORE_CORS_ORIGINS);
  if (cors !== undefined) options.corsOrigins = parseCorsOrigins(cors);
  const publicUrl = pick(flags.publicUrl, env.PETSTORE_PUBLIC_URL);
  if (publicUrl !== undefined) options.publicUrl = checkedPublicUrl(publicUrl);
  // A secret: from the environment only, never a flag (the process list shows flags).
  const ticketSecret = env.PETSTORE_TICKET_SECRET || undefined;
  if (ticketSecret !== undefined && ticketSecret.length < TICKET_SECRET_MIN_LENGTH) {
    throw new UsageError(`PETSTORE_TICKET_SECRET must be at least ${TICKET_SECRET_MIN_LENGTH} characters long`);
  }
  if (ticketSecret !== undefined) options.ticketSecret = ticketSecret;
  const webhooks = webhookSettings(flags, env);
  if (webhooks !== undefined) options.webhooks = webhooks;
  return options;
}

/** --webhook-retry-for (a duration, at least a minute), --webhook-max-in-flight and --webhooks-allow-private, or their variables. */
function webhookSettings(flags: ServeOpsFlags, env: Env): ServeOptions["webhooks"] {
  const retryFor = pick(flags.webhookRetryFor, env.PETSTORE_WEBHOOK_RETRY_FOR);
  const inFlight = pick(flags.webhookMaxInFlight, env.PETSTORE_WEBHOOK_MAX_IN_FLIGHT);
  const allowPrivate = flags.webhooksAllowPrivate === true || ["1", "true"].includes(env.PETSTORE_WEBHOOKS_ALLOW_PRIVATE ?? "");
  if (retryFor === undefined && inFlight === undefined && !allowPrivate) return undefined;
  const seconds = retryFor === undefined ? undefined : durationFlag("--webhook-retry-for", retryFor);
  if (seconds !== undefined && seconds < 60) throw new UsageError(`--webhook-retry-for must be at least 1m, got "${retryFor}"`);
  const maxInFlight = integerFlag("--webhook-max-in-flight", inFlight, undefined, 1, MAX_IN_FLIGHT_LIMIT);
  return {
    ...(seconds !== undefined ? { retryForMs: seconds * 1000 } : {}),
    ...(maxInFlight !== undefined ? { maxInFlight } : {}),
    ...(allowPrivate ? { allowPrivate } : {}),
  };
}

function checkedPublicUrl(value: string): string {
  const parsed = parsePublicUrl(value);
  if (parsed.problem !== undefined) throw new UsageError(parsed.problem);
  return parsed.url;
}

function logFormat(value: string | undefined, isStderrTTY: boolean): "text" | "json" {
  if (value === undefined) return isStderrTTY ? "text" : "json";
  if (value !== "text" && value !== "json") throw new UsageError(`--log-format must be text or json, got "${value}"`);
  return value;
}

function trustProxy(value: string): ServeOptions["trustProxy"] {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
}

function metricsPort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--metrics-port must be an integer from 0 to 65535, got "${value}"`);
  return Number(value);
}
