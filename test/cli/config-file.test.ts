import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFilePath, fileConfigStore, maskKey, withValue } from "../../src/cli/config-file.js";

const tempDir = () => mkdtemp(join(tmpdir(), "petstore-config-"));

describe("configFilePath", () => {
  it.each([
    [{ PETSTORE_CONFIG: "/etc/p.json", XDG_CONFIG_HOME: "/xdg" }, "/etc/p.json"],
    [{ XDG_CONFIG_HOME: "/xdg" }, "/xdg/petstore/config.json"],
    [{}, "/home/ann/.config/petstore/config.json"],
    [{ PETSTORE_CONFIG: "", XDG_CONFIG_HOME: "" }, "/home/ann/.config/petstore/config.json"],
  ])("%j → %s", (env, path) => {
    expect(configFilePath(env, "/home/ann")).toBe(path);
  });
});

const readConfigFile = (path: string) => fileConfigStore(path).read();
const writeConfigFile = (path: string, data: Parameters<ReturnType<typeof fileConfigStore>["write"]>[0]) => fileConfigStore(path).write(data);

describe("fileConfigStore: read and write", () => {
  it("reads a missing file as an empty config", async () => {
    expect(await readConfigFile(join(await tempDir(), "none.json"))).toEqual({});
  });

  it("writes with mode 0600, creating the folder, and reads back what it wrote", async () => {
    const path = join(await tempDir(), "deep", "petstore", "config.json");
    const data = withValue(withValue({}, undefined, "base-url", "http://a/v1"), "staging", "api-key", "ps_secret");
    await writeConfigFile(path, data);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readConfigFile(path)).toEqual({ baseUrl: "http://a/v1", profiles: { staging: { apiKey: "ps_secret" } } });
  });

  it("tightens a file that was readable by others when it rewrites it", async () => {
    const path = join(await tempDir(), "config.json");
    await writeFile(path, "{}", { mode: 0o644 });
    await writeConfigFile(path, { apiKey: "k" });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ apiKey: "k" });
  });

  it.each([
    ["not json", /is not valid JSON/],
    ["[]", /malformed: expected a JSON object/],
    ['{"apiKey": 5}', /malformed: apiKey must be a string/],
    ['{"profiles": {"staging": {"baseUrl": true}}}', /malformed: profiles\.staging\.baseUrl must be a string/],
  ])("names the file and the problem for %s", async (text, message) => {
    const path = join(await tempDir(), "config.json");
    await writeFile(path, text);
    await expect(readConfigFile(path)).rejects.toThrow(message);
    await expect(readConfigFile(path)).rejects.toThrow(path);
  });
});

describe("withValue", () => {
  it("sets a value at the top level or in a profile, keeping the rest", () => {
    const start = { baseUrl: "http://a/v1", profiles: { staging: { baseUrl: "http://s/v1" } } };
    expect(withValue(start, "staging", "api-key", "k")).toEqual({
      baseUrl: "http://a/v1",
      profiles: { staging: { baseUrl: "http://s/v1", apiKey: "k" } },
    });
    expect(withValue(start, undefined, "base-url", "http://b/v1").baseUrl).toBe("http://b/v1");
    expect(start.profiles.staging).toEqual({ baseUrl: "http://s/v1" });
  });
});

describe("maskKey", () => {
  it("shows the prefix and the last four characters", () => {
    expect(maskKey("ps_abcdefghijklmnopqrstuvwxyz")).toBe("ps_ab…wxyz");
  });
  it("hides short keys entirely", () => {
    expect(maskKey("short")).toBe("****");
  });
});
