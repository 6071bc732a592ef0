import type { StoreEvent } from "../../contract/events.js";
import { colorsFor } from "./colors.js";
import type { OutStream } from "./stream.js";
import { cutToWidth, displayWidth } from "./text-width.js";

/** One event: a readable line on a terminal (time, type, id, summary), else one JSON object per line (NDJSON). */
export function printEvent(event: StoreEvent, stream: OutStream, timeZone?: string): void {
  if (!stream.isTTY) {
    stream.write(`${JSON.stringify(event)}\n`);
    return;
  }
  const chalk = colorsFor(stream);
  const head = `${clockTime(event.at, timeZone)}  ${chalk.bold(event.type.padEnd(13))}  #${String(event.id).padEnd(6)}  `;
  // One event, one line: a long pet name is cut to the terminal's width.
  const room = stream.columns === undefined ? Number.POSITIVE_INFINITY : stream.columns - displayWidth(head);
  stream.write(`${head}${cutToWidth(summary(event), Math.max(room, 1))}\n`);
}

function summary({ type, data }: StoreEvent): string {
  if (type === "pet.deleted") return `pet ${String(data.id)}`;
  if (type.startsWith("pet.")) return `pet ${String(data.id)} ${JSON.stringify(data.name)} (category ${String(data.categoryId)}, ${String(data.status)})`;
  if (type === "webhook.disabled") return `webhook endpoint ${String(data.id)} (${String(data.origin)}) disabled: ${String(data.lastError)}`;
  return `order ${String(data.id)} for pet ${String(data.petId)}: ${String(data.status)}`;
}

/** HH:MM:SS of an ISO instant, in `timeZone` (the system's when undefined). */
export function clockTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(date);
}
