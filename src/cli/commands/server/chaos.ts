import { Command } from "commander";
import { ChaosSpecError, parseChaosSpec } from "../../../contract/chaos.js";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";
import { printOutcome, type Outcome } from "../../output/outcome.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";

export interface ChaosOptions {
  settings: Settings;
  spec: string;
  seed?: number;
}

export function chaosCommand(ctx: CliContext): Command {
  const command = new Command("chaos")
    .description("Change a throwaway server's faults on purpose (serve --ephemeral; admin key needed); \"off\" for none")
    .argument("<spec>", 'as serve --chaos takes it: "latency=200ms@10%,status=503@2%,reset=1%", or off')
    .option("--seed <n>", "start the fault sequence again from this seed")
    .action(async (spec: string, flags: { seed?: string }, self: Command) => {
      // Checked here too, so a typo is a usage error (exit 2) before any request.
      try {
        parseChaosSpec(spec);
      } catch (error) {
        if (error instanceof ChaosSpecError) throw new UsageError(`<spec> ${error.message}`);
        throw error;
      }
      if (flags.seed !== undefined && !/^\d{1,10}$/.test(flags.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${flags.seed}"`);
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      const seed = flags.seed === undefined ? undefined : Number(flags.seed);
      printOutcome(await runChaos({ settings, spec, seed }, ctx), ctx, settings);
    });
  return withExamples(command, 'petstore server chaos "status=503@50%" --seed 42', "petstore server chaos off");
}

/** PUT /admin/chaos; prints the faults now in force (a script reads them on stdout). */
export async function runChaos(options: ChaosOptions, ctx: CliContext): Promise<Outcome> {
  const body = options.seed === undefined ? { spec: options.spec } : { spec: options.spec, seed: options.seed };
  const response = await withClient(ctx, options.settings, (api) => api.request<{ spec: string; seed: number }>("PUT", "/admin/chaos", { body }));
  ctx.io.stdout.write(`${response.body.spec} (seed ${response.body.seed})\n`);
  return { kind: "done" };
}
