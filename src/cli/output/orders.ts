import type { Inventory, Order, OrderStatus } from "../../contract/values.js";
import { colorsFor } from "./colors.js";
import { renderJson } from "./json.js";
import { outputMode, type OutStream } from "./stream.js";
import { renderTable } from "./table.js";
import { renderTsv } from "./tsv.js";

const HEAD = ["ID", "PET", "STATUS", "CREATED", "UPDATED"];

/** Orders: a table on a TTY, tab-separated `id petId status createdAt updatedAt` otherwise, or a JSON array. */
export function printOrders(orders: readonly Order[], stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  if (mode === "json") stream.write(renderJson(orders));
  else if (mode === "tsv") stream.write(renderTsv(orders.map((o) => [o.id, o.petId, o.status, o.createdAt, o.updatedAt])));
  else if (orders.length > 0) stream.write(orderTable(orders, stream));
}

/** One order as `orders list` shows it; with --json the Order object itself. */
export function printOrder(order: Order, stream: OutStream, options: { json: boolean }): void {
  if (options.json) stream.write(renderJson(order));
  else printOrders([order], stream, options);
}

/** The counts: `available 3` lines piped, a one-row table on a TTY, the object with --json. */
export function printInventory(inventory: Inventory, stream: OutStream, options: { json: boolean }): void {
  const mode = outputMode(options.json, stream);
  const statuses = ["available", "pending", "sold"] as const;
  if (mode === "json") stream.write(renderJson(inventory));
  else if (mode === "tsv") stream.write(renderTsv(statuses.map((status) => [status, inventory[status]])));
  else stream.write(renderTable(statuses.map((s) => s.toUpperCase()), [statuses.map((s) => String(inventory[s]))], colorsFor(stream), { width: stream.columns, shrinkOrder: [] }));
}

function orderTable(orders: readonly Order[], stream: OutStream): string {
  const chalk = colorsFor(stream);
  const paint: Record<OrderStatus, (text: string) => string> = {
    placed: chalk.yellow,
    approved: chalk.cyan,
    delivered: chalk.green,
    cancelled: chalk.dim,
  };
  const rows = orders.map((o) => [String(o.id), String(o.petId), paint[o.status](o.status), shortTime(o.createdAt), shortTime(o.updatedAt)]);
  // The instants go first on a narrow terminal (never cut: half a time says nothing); the id,
  // the pet and the status are what a person acts on.
  return renderTable(HEAD, rows, chalk, { width: stream.columns, shrinkOrder: [], dropOrder: [4, 3] });
}

/** `2026-11-22 12:00:00Z`: what a person reads at a glance; scripts get the full ISO instant. */
function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}
