import type { H3Event } from "h3";
import { ChaosSpecError, parseChaosSpec } from "../../contract/chaos.js";
import { ChaosSettingSchema } from "../../contract/operations/meta.js";
import { describeIssue } from "../../contract/validation.js";
import type { ChaosControl } from "../chaos/chaos-control.js";
import { invalidBody, notFound } from "../errors.js";
import { readJsonBody } from "../internal/json-body.js";

/** The faults of this server (--chaos), and whether a request may change them (--ephemeral only). */
export interface ChaosDeps {
  control: ChaosControl;
  settable: boolean;
}

/** PUT /v1/admin/chaos: new faults, the sequence started again from the seed given (or the current one). */
export async function setChaos(event: H3Event, chaos: ChaosDeps | undefined): Promise<{ spec: string; seed: number }> {
  if (!chaos?.settable) throw notFound("only a throwaway server (serve --ephemeral) takes faults by request");
  const parsed = ChaosSettingSchema.safeParse(await readJsonBody(event));
  if (!parsed.success) throw invalidBody(describeIssue(parsed.error));
  let faults;
  try {
    faults = parseChaosSpec(parsed.data.spec);
  } catch (error) {
    if (error instanceof ChaosSpecError) throw invalidBody(`spec: ${error.message}`);
    throw error;
  }
  chaos.control.set(faults, parsed.data.seed);
  return { spec: chaos.control.spec, seed: chaos.control.seed };
}
