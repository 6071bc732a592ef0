// Whether webhook endpoints may be on loopback and private networks (never cloud metadata): with
// --webhooks-allow-private, and always on a throwaway server, whose receivers are a test suite's
// own, on 127.0.0.1 beside it. A server over a db never allows them without the flag.

export interface PrivateTargetSettings {
  ephemeral?: boolean;
  webhooks?: { allowPrivate?: boolean };
}

export function privateTargetsAllowed(options: PrivateTargetSettings): boolean {
  return options.webhooks?.allowPrivate === true || options.ephemeral === true;
}

/** The start-up warning when they are allowed, naming what allowed them; undefined otherwise. */
export function privateTargetsWarning(options: PrivateTargetSettings): string | undefined {
  const why = options.webhooks?.allowPrivate ? "--webhooks-allow-private" : options.ephemeral ? "--ephemeral (as with --webhooks-allow-private)" : undefined;
  return why && `webhooks: ${why}: endpoints on loopback and private networks may be called`;
}
