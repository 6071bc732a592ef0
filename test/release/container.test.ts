// The image the Containerfile builds (FROM scratch, around the executable), built with buildah
// and run as a runtime runs it (helpers/container.ts): read-only root, /data a volume, its own
// network, the image's user. It serves; the HEALTHCHECK passes; a pet outlives a restart on the
// same /data; SIGTERM stops it cleanly within 5 s. The image's size is printed.
import { chown, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildImage, inspectImage, mountImage, removeImage, runContainer, type ImageConfig } from "./helpers/container.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TAG = `localhost/petstore-release-test:${process.pid}`;
const ADMIN_KEY = "ps_container_admin_key_0123456789abcdef";
const USER = "10001:10001";

let config: ImageConfig;
let image: { rootfs: string; remove(): Promise<void> };
let data: string;

beforeAll(async () => {
  await buildImage(ROOT, TAG);
  const inspected = await inspectImage(TAG);
  config = inspected.config;
  console.log(`image ${TAG}: ${(inspected.bytes / 1024 / 1024).toFixed(1)} MiB (${inspected.bytes} bytes, uncompressed)`);
  image = await mountImage(TAG);
  data = await mkdtemp(join(tmpdir(), "petstore-volume-"));
  // As a named volume starts: owned by the image's user (the image's /data is).
  const { uid, gid } = await stat(join(image.rootfs, "data"));
  await chown(data, uid, gid);
}, 300_000);
afterAll(async () => {
  await image?.remove();
  await removeImage(TAG);
  if (data) await rm(data, { recursive: true, force: true });
});

describe("the image", () => {
  it("runs the executable as a non-root user, serving on every address of port 3000 with the db in the /data volume", () => {
    expect(config).toMatchObject({
      User: USER,
      Entrypoint: ["/usr/local/bin/petstore"],
      Cmd: ["serve"],
      ExposedPorts: { "3000/tcp": {} },
      Volumes: { "/data": {} },
      StopSignal: "SIGTERM",
      Healthcheck: { Test: ["CMD", "/usr/local/bin/petstore", "health", "--url", "http://127.0.0.1:3000/readyz"] },
    });
    expect(config.Env).toEqual(expect.arrayContaining(["PETSTORE_HOST=0.0.0.0", "PETSTORE_PORT=3000", "PETSTORE_DB=/data/petstore.json"]));
  });

  it("holds the executable, the C libraries it links and three files of /etc: no shell, no Node, no npm", async () => {
    const files = (await walk(image.rootfs)).map((path) => `/${relative(image.rootfs, path)}`).sort();
    const libraries = files.filter((path) => /^\/lib(64)?\//.test(path));
    expect(files.filter((path) => !libraries.includes(path))).toEqual(["/data", "/etc/group", "/etc/nsswitch.conf", "/etc/passwd", "/usr/local/bin/petstore"]);
    for (const library of libraries) expect(library).toMatch(/^\/lib\/x86_64-linux-gnu\/lib(c|m|dl|pthread|gcc_s|stdc\+\+)\.so\.\d+$|^\/lib64\/ld-linux-x86-64\.so\.2$/);
    expect(libraries).toEqual(expect.arrayContaining(["/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"]));
  });
});

describe("a container of the image", () => {
  let petId: number;

  it("serves as uid 10001 on a read-only root, passes its HEALTHCHECK, and stops on SIGTERM within 5 s", async () => {
    const container = await runContainer(image.rootfs, config, { data, env: { PETSTORE_ADMIN_KEY: ADMIN_KEY } });
    await container.waitFor(/listening on http:\/\/\S+:3000\/v1/);
    expect(await statusLine(container.pid, "Uid")).toMatch(/^10001\s+10001\s+10001\s+10001$/);
    expect(await rootMountOptions(container.pid)).toContain("ro");
    expect(await listeningOn(container.pid)).toContain("0.0.0.0:3000");
    const health = await container.exec(config.Healthcheck!.Test.slice(1));
    expect(health).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
    // A host name goes through the C library's lookup (/etc/nsswitch.conf, /etc/hosts), as a
    // PostgreSQL or Redis host would.
    const byName = await container.exec(["/usr/local/bin/petstore", "health", "--url", "http://localhost:3000/readyz"]);
    expect(byName).toEqual({ code: 0, stdout: "ready\n", stderr: "" });
    const added = await container.exec(["/usr/local/bin/petstore", "pets", "add", "--name", "Rex", "--category", "1", "--json"], {
      PETSTORE_API_KEY: ADMIN_KEY,
      PETSTORE_BASE_URL: "http://127.0.0.1:3000/v1",
    });
    expect(added).toMatchObject({ code: 0, stderr: "" });
    petId = (JSON.parse(added.stdout) as { id: number }).id;
    const stopped = await container.stop(config.StopSignal);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5_000);
    // Logs are JSON lines, stderr being no terminal, as `docker logs` collects them.
    expect(container.output()).toMatch(/"msg":"SIGTERM: finishing in-flight requests, then stopping"\}\n.*"msg":"stopped"\}\n$/);
    const written = await readdir(data);
    expect(written).toContain("petstore.json");
    for (const name of written) expect((await stat(join(data, name))).uid).toBe(10001);
  });

  it("keeps the pet across a restart on the same /data", async () => {
    expect(petId).toBeGreaterThan(0);
    const container = await runContainer(image.rootfs, config, { data, env: { PETSTORE_ADMIN_KEY: ADMIN_KEY } });
    try {
      await container.waitFor(/listening on http:\/\/\S+:3000\/v1/);
      const listed = await container.exec(["/usr/local/bin/petstore", "pets", "list", "--json"], {
        PETSTORE_API_KEY: ADMIN_KEY,
        PETSTORE_BASE_URL: "http://127.0.0.1:3000/v1",
      });
      expect(listed).toMatchObject({ code: 0, stderr: "" });
      expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: petId, name: "Rex", categoryId: 1 })]);
    } finally {
      expect((await container.stop("SIGTERM")).code).toBe(0);
    }
  });
});

/** Every file under `dir`, and each empty directory. */
async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.length === 0) return [dir];
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

async function statusLine(pid: number, field: string): Promise<string> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return new RegExp(`^${field}:\\s+(.*)$`, "m").exec(status)?.[1]?.trim() ?? "";
}

/** The mount options of the process's root, from its mountinfo. */
async function rootMountOptions(pid: number): Promise<string[]> {
  const mountinfo = await readFile(`/proc/${pid}/mountinfo`, "utf8");
  const root = mountinfo.split("\n").find((line) => line.split(" ")[4] === "/");
  return root?.split(" ")[5]?.split(",") ?? [];
}

/** The TCP addresses it listens on, from its network namespace's /proc/net/tcp. */
async function listeningOn(pid: number): Promise<string[]> {
  const table = await readFile(`/proc/${pid}/net/tcp`, "utf8");
  return table
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[3] === "0A")
    .map((fields) => {
      const [address = "", port = ""] = fields[1]!.split(":");
      const octets = address.match(/../g)!.map((byte) => parseInt(byte, 16)).reverse();
      return `${octets.join(".")}:${parseInt(port, 16)}`;
    });
}
