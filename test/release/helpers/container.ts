// Runs an image built by buildah as a container runtime would, with no daemon: buildah here runs
// a command in a working container, but it neither passes SIGTERM on (it kills) nor lets a -v
// replace an image VOLUME, so the tests start the image's entrypoint themselves. unshare gives it
// its own mount, PID and network namespaces (it is PID 1, with loopback only); its root is the
// image mounted read-only, /data a host directory, and it runs as the image's user with the
// image's environment. Needs root, as buildah does here.
import { execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { collect, type Result } from "./executable.js";

const exec = promisify(execFile);

/** The image's config, as `buildah inspect` gives it (Docker format: it carries the HEALTHCHECK). */
export interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  ExposedPorts: Record<string, object>;
  Volumes: Record<string, object>;
  StopSignal: string;
  Healthcheck?: { Test: string[] };
}

export async function buildImage(context: string, tag: string): Promise<void> {
  await exec("buildah", ["bud", "--isolation", "chroot", "--format", "docker", "--quiet", "-f", "Containerfile", "-t", tag, context], { maxBuffer: 16 << 20 });
}

export async function inspectImage(tag: string): Promise<{ config: ImageConfig; bytes: number }> {
  const { stdout } = await exec("buildah", ["inspect", "--type", "image", tag], { maxBuffer: 16 << 20 });
  const image = JSON.parse(stdout) as { Docker: { config: ImageConfig }; Manifest: string };
  const layers = (JSON.parse(image.Manifest) as { layers: Array<{ size: number }> }).layers;
  return { config: image.Docker.config, bytes: layers.reduce((sum, layer) => sum + layer.size, 0) };
}

export async function removeImage(tag: string): Promise<void> {
  await exec("buildah", ["rmi", "--force", tag]).catch(() => undefined);
}

/** A working container's root filesystem, mounted on the host (a fresh copy-on-write layer over the image). */
export async function mountImage(tag: string): Promise<{ rootfs: string; remove(): Promise<void> }> {
  const container = (await exec("buildah", ["from", "--pull-never", "--quiet", tag])).stdout.trim();
  const rootfs = (await exec("buildah", ["mount", container])).stdout.trim();
  return { rootfs, remove: async () => void (await exec("buildah", ["rm", container]).catch(() => undefined)) };
}

export interface Container {
  /** The entrypoint's pid, as the host sees it. */
  pid: number;
  /** What it printed so far, both streams. */
  output(): string;
  /** Waits until its output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Runs a program of the image inside the container: its root, mounts, network and user. */
  exec(args: string[], env?: Record<string, string>): Promise<Result>;
  /** Sends the signal; resolves with the exit code and how long it took to exit. */
  stop(signal: string): Promise<{ code: number | null; ms: number }>;
}

// Mount points made before the root turns read-only, as runtimes make them; then the root as a
// read-only bind, the volume, /proc, a few devices and the /etc/hosts a runtime writes; then the
// entrypoint as the image's user.
const RUNTIME = `
set -e
root=$1; data=$2; user=$3; shift 3
mkdir -p "$root/proc" "$root/dev" "$root/data"
for device in null zero random urandom; do [ -e "$root/dev/$device" ] || : > "$root/dev/$device"; done
[ -e "$root/etc/hosts" ] || : > "$root/etc/hosts"
hosts=$(mktemp)
printf '127.0.0.1 localhost\n::1 localhost\n' > "$hosts"
chmod 644 "$hosts"
ip link set lo up
mount --bind "$root" "$root"
mount --bind "$data" "$root/data"
mount -t proc proc "$root/proc"
for device in null zero random urandom; do mount --bind "/dev/$device" "$root/dev/$device"; done
mount --bind "$hosts" "$root/etc/hosts"
rm "$hosts"
mount -o remount,bind,ro "$root"
exec chroot --userspec="$user" "$root" "$@"
`;

export async function runContainer(rootfs: string, config: ImageConfig, options: { data: string; env?: Record<string, string> }): Promise<Container> {
  const env = { ...Object.fromEntries(config.Env.map((line) => line.split(/=(.*)/s, 2) as [string, string])), ...options.env };
  const command = [...config.Entrypoint, ...config.Cmd];
  const runtime = spawn("unshare", ["--mount", "--pid", "--net", "--fork", "--kill-child", "sh", "-c", RUNTIME, "runtime", rootfs, options.data, config.User, ...command], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  for (const stream of [runtime.stdout, runtime.stderr]) stream.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const done = collect(runtime);
  const pid = await entrypointPid(runtime.pid!, command[0]!, done);
  const userOption = config.User.split(":");
  return {
    pid,
    output: () => output,
    waitFor: async (pattern, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    exec: async (args, extra = {}) => {
      const child = spawn("nsenter", ["--target", String(pid), "--mount", "--net", "--root", "--wd", `--setuid=${userOption[0]}`, `--setgid=${userOption[1]}`, "--", ...args], {
        env: { ...env, ...extra },
        stdio: ["ignore", "pipe", "pipe"],
      });
      return collect(child);
    },
    stop: async (signal) => {
      const started = performance.now();
      process.kill(pid, signal);
      const result = await done;
      return { code: result.code, ms: performance.now() - started };
    },
  };
}

/** unshare's child, once it has become the entrypoint (sh, then chroot, exec into it). */
async function entrypointPid(unsharePid: number, program: string, done: Promise<Result>): Promise<number> {
  let exited: Result | undefined;
  void done.then((result) => (exited = result));
  for (let attempt = 0; attempt < 200; attempt++) {
    if (exited) throw new Error(`the container exited (${exited.code}) before starting:\n${exited.stderr}${exited.stdout}`);
    const children = await readFile(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").catch(() => "");
    const pid = Number(children.trim().split(" ")[0]);
    if (pid > 0 && (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).startsWith(`${program}\0`)) return pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the container's entrypoint did not start within 10 s");
}
