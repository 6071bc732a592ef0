import type { CliContext } from "../context.js";
import type { ResponseHeaders } from "../http.js";
import { firstToday } from "../internal/once-a-day.js";
import type { ColorMode } from "../settings.js";
import { labelled } from "./notice.js";
import { stderrOf } from "./stream.js";

/**
 * The Store commands' notice: said on a terminal only (a script has the header, and its stderr
 * is for errors), once a day per base URL, and only when the server marked the answer beta.
 */
export async function betaNotice(
  ctx: Pick<CliContext, "io" | "state" | "now">,
  settings: { baseUrl: string; color: ColorMode },
  headers: ResponseHeaders,
): Promise<void> {
  if (!ctx.io.isStderrTTY || headers["x-api-stability"] !== "beta") return;
  if (!(await firstToday("betaNoticeShown", settings.baseUrl, ctx))) return;
  const message = "orders and inventory are beta; their answers may change within v1.";
  ctx.io.stderr.write(labelled("Notice", message, stderrOf(ctx, settings)));
}
