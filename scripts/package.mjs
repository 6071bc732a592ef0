// `npm run package`: release/petstore-linux-x64, one file that runs petstore without Node or npm
// (a Node single executable application: this Node binary with the program injected), its
// SHA256SUMS, and release/image/, what the Containerfile copies besides it.
//
// The program is the npm build's two parts with every package bundled, as CommonJS files
// (build/sea-app.mjs); they, their V8 code caches (build/sea-caches.mjs), Swagger UI's files
// for /docs and jq-web's jq.wasm for --jq are the SEA's assets, loaded by src/sea/main.ts.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ROOT } from "./build/cli-options.mjs";
import { stageImageRoot } from "./build/image-root.mjs";
import { trainCodeCaches } from "./build/sea-caches.mjs";
import { buildSeaApp, JQ_WASM_ASSET } from "./build/sea-app.mjs";

// Node's single-executable fuse, as its documentation gives it for postject.
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const RELEASE = join(ROOT, "release");
const WORK = join(RELEASE, "build");
const NAME = "petstore-linux-x64";

if (process.platform !== "linux" || process.arch !== "x64") {
  process.stderr.write(`npm run package builds ${NAME} on Linux x64 only (this is ${process.platform}-${process.arch})\n`);
  process.exit(1);
}
const started = Date.now();
await rm(WORK, { recursive: true, force: true });
const appDir = join(WORK, "app");
const names = await buildSeaApp(esbuild, appDir);
const entries = await buildSeaEntries();
const caches = await trainCodeCaches({ trainer: entries.trainer, appDir, cacheDir: join(WORK, "cache"), names });
const blob = await seaBlob(entries.main, { ...appAssets(names), ...(await swaggerUiAssets()), [JQ_WASM_ASSET]: jqWasm() });
const executable = join(RELEASE, NAME);
await inject(blob, executable);
await writeFile(join(RELEASE, "SHA256SUMS"), `${await sha256(executable)}  ${NAME}\n`);
await stageImageRoot(executable, join(RELEASE, "image"));
const size = (await readFile(executable)).length;
console.log(
  `release/${NAME}: ${(size / 1024 / 1024).toFixed(1)} MiB, ${names.length} files (${caches.trained} code caches trained, ` +
    `${caches.compiled} compiled), in ${((Date.now() - started) / 1000).toFixed(0)} s; release/SHA256SUMS; release/image/`,
);

/** The SEA's main script and the cache trainer, from src/sea/. */
async function buildSeaEntries() {
  const common = { bundle: true, platform: "node", target: "node20.19", format: "cjs", logLevel: "warning" };
  const main = join(WORK, "sea-main.cjs");
  const trainer = join(WORK, "sea-train.cjs");
  await esbuild.build({ ...common, entryPoints: [join(ROOT, "src/sea/main.ts")], outfile: main });
  await esbuild.build({ ...common, entryPoints: [join(ROOT, "src/sea/train.ts")], outfile: trainer });
  return { main, trainer };
}

function appAssets(files) {
  return Object.fromEntries(files.flatMap((name) => [[`app/${name}`, join(appDir, name)], [`cache/${name}`, join(WORK, "cache", name)]]));
}

/** The files of swagger-ui-dist that /docs serves (src/server/docs/swagger-ui-files.json), and its manifest. */
async function swaggerUiAssets() {
  const manifest = createRequire(join(ROOT, "package.json")).resolve("swagger-ui-dist/package.json");
  const files = JSON.parse(await readFile(join(ROOT, "src/server/docs/swagger-ui-files.json"), "utf8"));
  const assets = { "swagger-ui-dist/package.json": manifest };
  for (const name of Object.keys(files)) assets[`swagger-ui-dist/${name}`] = join(dirname(manifest), name);
  return assets;
}

/** jq-web's jq.wasm, which its bundled JS is given from the assets (build/sea-app.mjs). */
function jqWasm() {
  return join(dirname(createRequire(join(ROOT, "package.json")).resolve("jq-web")), "jq.wasm");
}

async function seaBlob(main, assets) {
  const config = join(WORK, "sea-config.json");
  const output = join(WORK, "sea-prep.blob");
  // No useCodeCache: the main script is a few lines (the program's files have their caches, above),
  // and Node warns at every start whose V8 flags refuse it (a --max-old-space-size in NODE_OPTIONS).
  await writeFile(config, JSON.stringify({ main, output, disableExperimentalSEAWarning: true, useCodeCache: false, assets }, null, 2));
  const result = spawnSync(process.execPath, ["--experimental-sea-config", config], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`node --experimental-sea-config failed:\n${result.stderr}`);
  return output;
}

/** A copy of this Node binary with the blob injected by postject. */
async function inject(blob, executable) {
  await mkdir(dirname(executable), { recursive: true });
  await rm(executable, { force: true });
  await copyFile(process.execPath, executable);
  await chmod(executable, 0o755);
  const postject = createRequire(import.meta.url).resolve("postject/dist/cli.js");
  const result = spawnSync(process.execPath, [postject, executable, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], { encoding: "utf8" });
  // LIEF warns of ELF notes it cannot name, for every binary: noise.
  const stderr = result.stderr.split("\n").filter((line) => line !== "" && !/Can't find string offset for section name '\.note/.test(line));
  if (result.status !== 0) throw new Error(`postject failed (${result.status}):\n${result.stdout}${stderr.join("\n")}`);
  if (stderr.length > 0) process.stderr.write(`${stderr.join("\n")}\n`);
}

async function sha256(file) {
  return createHash("sha256").update(await readFile(file)).digest("hex");
}
