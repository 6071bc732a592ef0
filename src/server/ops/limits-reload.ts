// SIGHUP: the limits file is read again and its limits apply from the next request. The counters
// live in the limiter, which is not touched, so nobody gets a fresh window by a reload.
import { messageOf } from "../../support/error-text.js";
import type { LimitsConfig } from "../../limits/plans.js";
import type { ServerLogger } from "../request-log.js";

export interface LimitsHolder {
  readonly current: LimitsConfig;
}

/**
 * Holds the limits in force and replaces them on `reload()`. A file that cannot be read or is
 * invalid leaves them as they were, and says why. The ban policy is built into the limiter at
 * start, so a change to it is reported as waiting for a restart.
 */
export class ReloadableLimits implements LimitsHolder {
  #current: LimitsConfig;
  readonly #load: () => Promise<LimitsConfig>;
  readonly #logger: ServerLogger;

  constructor(initial: LimitsConfig, load: () => Promise<LimitsConfig>, logger: ServerLogger) {
    this.#current = initial;
    this.#load = load;
    this.#logger = logger;
  }

  get current(): LimitsConfig {
    return this.#current;
  }

  /** Resolves true when the new limits are in force. */
  async reload(file: string): Promise<boolean> {
    let next: LimitsConfig;
    try {
      next = await this.#load();
    } catch (error) {
      this.#logger.warn(`SIGHUP: kept the limits in force: ${messageOf(error)}`, { file });
      return false;
    }
    const banChanged = JSON.stringify(next.ban) !== JSON.stringify(this.#current.ban);
    this.#current = { ...next, ban: this.#current.ban };
    this.#logger.info(`SIGHUP: reloaded the limits from ${file}`, { file });
    if (banChanged) this.#logger.warn(`SIGHUP: the ban policy in ${file} changed; it applies from the next restart`, { file });
    return true;
  }
}
