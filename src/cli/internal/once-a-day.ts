import type { CliContext } from "../context.js";
import type { CliState } from "../state-file.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The state file's records of when a notice was last shown, per base URL. */
export type NoticeRecord = "deprecationNoticeShown" | "betaNoticeShown";

/**
 * True at most once a day per base URL for this notice, remembering it in the state file, so a
 * notice is seen without drowning every run in it.
 */
export async function firstToday(notice: NoticeRecord, baseUrl: string, ctx: Pick<CliContext, "state" | "now">): Promise<boolean> {
  const state: CliState = await ctx.state.read();
  const shown = state[notice] ?? {};
  const last = shown[baseUrl];
  if (last !== undefined && ctx.now() - last < DAY_MS) return false;
  await ctx.state.write({ ...state, [notice]: { ...shown, [baseUrl]: ctx.now() } });
  return true;
}
