// Makes dist/cli.cjs fit for bin/code-cache.js, which compiles it with a V8 code cache through
// vm.Script. On Node 20 a vm.Script made from cached data loses its dynamic-import callback
// ("A dynamic import callback was not specified"), so the start-up file must not call import()
// itself: each `import("...")` becomes a call of a function that asks dist/esm-import.cjs, a file
// Node compiles as usual, to import it (relative specifiers resolve from dist/ as before). The
// build's id (a hash of the file) is written at the end, so a cache is never taken for another
// build; all of it goes after the code, so the source map's lines still hold.
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";

const IMPORT = /\bimport\(("[^"\n]+")\)/g;

export async function prepareForCodeCache(outdir, file = "cli.cjs") {
  const path = `${outdir}/${file}`;
  const text = await readFile(path, "utf8");
  const rewritten = text.replace(IMPORT, "__petstoreImport($1)");
  if (/\bimport\(/.test(rewritten)) throw new Error(`${file}: an import() the build cannot route (not a string literal)`);
  const loader = '\nfunction __petstoreImport(specifier) {\n  return require("./esm-import.cjs")(specifier);\n}\n';
  const mapLine = rewritten.lastIndexOf("//# sourceMappingURL=");
  const [code, map] = mapLine === -1 ? [rewritten, ""] : [rewritten.slice(0, mapLine), rewritten.slice(mapLine)];
  const id = createHash("sha256").update(code + loader).digest("hex").slice(0, 16);
  await writeFile(path, `${code}${loader}// petstore-build=${id}\n${map}`);
  await writeFile(`${outdir}/esm-import.cjs`, '"use strict";\n// import() for dist/cli.cjs (scripts/build/code-cache-ready.mjs).\nmodule.exports = (specifier) => import(specifier);\n');
}
