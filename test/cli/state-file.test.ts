import { mkdtemp, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileStateStore, stateFilePath } from "../../src/cli/state-file.js";

describe("the state file", () => {
  it("lives in $XDG_STATE_HOME/petstore/, else ~/.local/state/petstore/", () => {
    expect(stateFilePath({ XDG_STATE_HOME: "/x/state" }, "/home/a")).toBe("/x/state/petstore/state.json");
    expect(stateFilePath({}, "/home/a")).toBe("/home/a/.local/state/petstore/state.json");
  });

  it("is written with mode 0600 and read back; missing or garbled reads as empty", async () => {
    const dir = await mkdtemp(join(tmpdir(), "petstore-state-"));
    const path = stateFilePath({ XDG_STATE_HOME: dir }, "/nonexistent");
    const store = fileStateStore(path);
    expect(await store.read()).toEqual({});
    await store.write({ deprecationNoticeShown: { "http://h/v1": 5 } });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.read()).toEqual({ deprecationNoticeShown: { "http://h/v1": 5 } });
    await writeFile(path, "{not json");
    expect(await store.read()).toEqual({});
  });
});
