// The loader-thread half of record-modules.mjs: appends the URL of each module as it is loaded.
import { appendFileSync } from "node:fs";

let out = "";

export function initialize(data) {
  out = data.out;
}

export async function load(url, context, nextLoad) {
  appendFileSync(out, `${url}\n`);
  return nextLoad(url, context);
}
