// Preloaded with `node --import` by lean-client.test.ts: at exit, writes the names of the Node
// built-in modules the process evaluated (process.moduleLoadList), one a line, to the file named
// by PETSTORE_RECORD_BUILTINS.
import { writeFileSync } from "node:fs";

const out = process.env.PETSTORE_RECORD_BUILTINS;
if (!out) throw new Error("PETSTORE_RECORD_BUILTINS must name the file to record built-ins in");
process.on("exit", () => {
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule ")).map((entry) => entry.slice(13));
  writeFileSync(out, `${builtins.join("\n")}\n`);
});
