import { Command } from "commander";
import { withClient, type CliContext } from "../../context.js";
import { UsageError } from "../../errors.js";
import { withExamples } from "../../internal/help.js";
import { globalFlagsOf, resolveSettings, type Settings } from "../../settings.js";
import { API_GLOBALS, takesGlobalOptions } from "../../internal/global-options.js";

export interface BackupOptions {
  settings: Settings;
  file: string;
}

export function backupCommand(ctx: CliContext): Command {
  const command = new Command("backup")
    .description("Save a consistent copy of a running server's store to a new file (admin key needed); `serve --db <file>` opens it")
    .argument("<file>", "the new file (mode 0600: it holds key hashes and webhook signing secrets); an existing file is not overwritten")
    .action(async (file: string, _flags: unknown, self: Command) => {
      const settings = await resolveSettings(globalFlagsOf(self), ctx);
      await runBackup({ settings, file }, ctx);
    });
  takesGlobalOptions(command, API_GLOBALS);
  return withExamples(command, "petstore db backup /var/backups/petstore-$(date +%F).json");
}

/** The server takes the snapshot (POST /admin/backup); this writes it durably, never over a file. */
export async function runBackup(options: BackupOptions, ctx: CliContext): Promise<void> {
  const { writeFile } = await import("node:fs/promises");
  const response = await withClient(ctx, options.settings, (api) => api.request<Record<string, unknown>>("POST", "/admin/backup"));
  const body = response.body;
  const text = `${JSON.stringify(body)}\n`;
  await writeFile(options.file, text, { flag: "wx", mode: 0o600, flush: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${options.file} exists: choose a new file, a backup never overwrites one`);
    throw error;
  });
  const count = (name: string) => (Array.isArray(body[name]) ? (body[name] as unknown[]).length : 0);
  const webhooks = count("webhooks") + count("deliveries") > 0 ? `, ${count("webhooks")} webhook endpoints, ${count("deliveries")} deliveries` : "";
  ctx.io.stderr.write(`Saved ${count("pets")} pets, ${count("keys")} keys, ${count("orders")} orders${webhooks} to ${options.file}.\n`);
}
