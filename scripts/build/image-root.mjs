// release/image/: what the Containerfile copies beside the executable into an image built FROM
// scratch. rootfs/ holds the shared libraries the executable links (as ldd lists them: the C and
// C++ runtimes and the loader, at the paths the loader looks in) and the few files of /etc a
// process reads (the non-root user, name lookup); data/ is the empty /data the volume starts as.
import { execFileSync } from "node:child_process";
import { copyFile, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The uid and gid the image runs as: no name or number any host gives a person. */
export const IMAGE_USER = 10001;

const ETC = {
  passwd: `root:x:0:0:root:/root:/nonexistent\npetstore:x:${IMAGE_USER}:${IMAGE_USER}:petstore:/data:/nonexistent\n`,
  group: `root:x:0:\npetstore:x:${IMAGE_USER}:\n`,
  // glibc's name lookup for a PostgreSQL or Redis host: /etc/hosts, then DNS (resolv.conf comes from the runtime).
  "nsswitch.conf": "passwd: files\ngroup: files\nhosts: files dns\n",
};

export async function stageImageRoot(executable, outdir) {
  await rm(outdir, { recursive: true, force: true });
  const rootfs = join(outdir, "rootfs");
  for (const library of sharedLibraries(executable)) {
    const target = join(rootfs, library);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(await realpath(library), target);
  }
  await mkdir(join(rootfs, "etc"), { recursive: true });
  for (const [name, text] of Object.entries(ETC)) await writeFile(join(rootfs, "etc", name), text);
  await mkdir(join(outdir, "data"), { recursive: true });
}

/** The absolute paths ldd prints: `libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)` and the loader's line. */
export function sharedLibraries(executable) {
  const output = execFileSync("ldd", [executable], { encoding: "utf8" });
  const paths = [...output.matchAll(/^\s*(?:\S+ => )?(\/\S+) \(0x[0-9a-f]+\)$/gm)].map((match) => match[1]);
  if (paths.length === 0) throw new Error(`ldd found no shared library in ${executable}:\n${output}`);
  if (/not found/.test(output)) throw new Error(`ldd: a library of ${executable} is missing:\n${output}`);
  return paths;
}
