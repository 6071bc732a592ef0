// What the two generated-client tests share: a folder an integrator's project would be (our
// node_modules for @types/node and the runtime packages), a strict tsconfig, tsc over the generated
// code and a typed program, and the compiled program loaded to run against a live server.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { checkResponse } from "./conformance.js";

const exec = promisify(execFile);
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSC = join(ROOT, "node_modules/typescript/lib/tsc.js");

/** As strict as this project, emitting ES modules into out/. */
export const STRICT_COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2023", "DOM"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: ["node"],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  outDir: "out",
};

/** A temporary folder that resolves packages as an integrator's project would. */
export async function programDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Writes the tsconfig, copies `program` in as client.ts, runs tsc, and returns what tsc printed
 * (empty when it type-checks) and a loader of the compiled program.
 */
// The return type is inferred: the compiled program is loaded by URL, untyped as any dynamic import.
export async function compileProgram(dir: string, tsconfig: object, program: string) {
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  await writeFile(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await copyFile(program, join(dir, "client.ts"));
  const compiled = await exec(process.execPath, [TSC, "-p", dir]).catch((error: { stdout: string }) => error);
  return { tscOutput: compiled.stdout, load: () => import(pathToFileURL(join(dir, "out/client.js")).href) };
}

/** The client's own requests are held to the document too. */
export async function checkedFetch(request: Request): Promise<Response> {
  const response = await fetch(request);
  await checkResponse(request.method, request.url, response.clone());
  return response;
}
