// Our own client against a server that fails on purpose (serve --ephemeral --chaos): an import of
// 2,000 pets ends with exactly 2,000 and exit 0, and `pets list --all` returns every pet once.
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers/run-cli.js";
import { BIN } from "../helpers/serve-process.js";

const CHAOS = "latency=50ms@10%,status=503@5%,reset=2%";
const ADMIN = "ps_ChaosAdmin000000000000000000000000000000";
let env: Record<string, string>;
let stop: () => void;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "petstore-chaos-"));
  const seed = join(dir, "seed.json");
  await writeFile(seed, JSON.stringify({ keys: [{ key: ADMIN, plan: "enterprise", admin: true, perMinute: 1000000, perDay: 100000000 }] }));
  const child = spawn(process.execPath, [BIN, "serve", "--ephemeral", "--seed", seed, "--port", "0", "--print-env", "--chaos", CHAOS, "--chaos-seed", "42", "--quiet"], {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1", PETSTORE_LOG_FORMAT: "text" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  stop = () => child.kill("SIGTERM");
  let stdout = "";
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (/PETSTORE_API_KEY=\S+\n/.test(stdout)) resolve();
    });
  });
  env = Object.fromEntries(stdout.trim().split("\n").map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
}, 30_000);
afterAll(() => stop());

describe(`the client against --chaos "${CHAOS}"`, () => {
  it("pets import of 2,000 records ends with exactly 2,000 pets, exit 0; pets list --all returns each once", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-import-"));
    const file = join(dir, "pets.ndjson");
    await writeFile(file, Array.from({ length: 2000 }, (_, n) => JSON.stringify({ name: `pet-${n}`, categoryId: 1 + (n % 7) })).join("\n") + "\n");
    const ready = await fetch(`${new URL(env.PETSTORE_BASE_URL!).origin}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready", chaos: `${CHAOS} (seed 42)` });
    const imported = await runCli(["pets", "import", file], { env });
    expect(imported.code, imported.stderr).toBe(0);
    const listed = await runCli(["pets", "list", "--all", "--json"], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const pets = JSON.parse(listed.stdout) as Array<{ id: number; name: string }>;
    expect(pets).toHaveLength(2000);
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(2000);
    expect(new Set(pets.map((pet) => pet.name))).toEqual(new Set(Array.from({ length: 2000 }, (_, n) => `pet-${n}`)));
  }, 180_000);
});
