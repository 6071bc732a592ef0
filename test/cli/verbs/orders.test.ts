// `petstore orders ...` and `petstore inventory` in process against the real app.
import { stripVTControlCharacters } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { memoryStateStore } from "../helpers/test-context.js";
import { startWorld } from "./world.js";

const NOTICE = /Notice: orders and inventory are beta; their answers may change within v1\./;
let world: Awaited<ReturnType<typeof startWorld>>;
const petstore: typeof world.run = (argv, options) => world.run(argv, options);

beforeAll(async () => {
  world = await startWorld();
  for (const name of ["Rex", "Tom", "Kit"]) expect((await petstore(["pets", "add", "--name", name, "--category", "1"])).code).toBe(0);
});

describe("orders", () => {
  it("place, approve, deliver: tab-separated lines piped, the pet sold, the inventory following", async () => {
    const placed = await petstore(["orders", "place", "1"]);
    expect(placed.code).toBe(0);
    expect(placed.stdout).toMatch(/^1\t1\tplaced\t\S+Z\t\S+Z\n$/);
    expect(placed.stderr).toBe("");
    expect((await petstore(["orders", "approve", "1"])).stdout).toMatch(/^1\t1\tapproved\t/);
    const delivered = await petstore(["orders", "deliver", "1", "--json"]);
    expect(JSON.parse(delivered.stdout)).toMatchObject({ id: 1, petId: 1, status: "delivered" });
    expect((await petstore(["pets", "list", "--status", "sold"])).stdout).toBe("1\tRex\t1\tsold\n");
    expect((await petstore(["inventory"])).stdout).toBe("available\t2\npending\t0\nsold\t1\n");
    expect(JSON.parse((await petstore(["inventory", "--json"])).stdout)).toEqual({ available: 2, pending: 0, sold: 1 });
  });

  it("a refused order or transition is exit 1 with the server's message; an unknown one exit 4", async () => {
    expect(await petstore(["orders", "place", "1"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/pet 1 is sold, not available/) });
    expect(await petstore(["orders", "cancel", "1"])).toMatchObject({ code: 1, stderr: expect.stringMatching(/cannot go from delivered to cancelled/) });
    expect((await petstore(["orders", "get", "99"])).code).toBe(4);
    expect((await petstore(["orders", "place", "abc"])).code).toBe(2);
    expect((await petstore(["orders", "list", "--status", "sold"])).code).toBe(2);
  });

  it("lists with --status and --pet, and every page with --all", async () => {
    await petstore(["orders", "place", "2"]);
    await petstore(["orders", "place", "3"]);
    await petstore(["orders", "cancel", "3"]);
    expect((await petstore(["orders", "list", "--status", "placed"])).stdout).toMatch(/^2\t2\tplaced\t[^\n]+\n$/);
    expect((await petstore(["orders", "list", "--pet", "3"])).stdout).toMatch(/^3\t3\tcancelled\t[^\n]+\n$/);
    const all = JSON.parse((await petstore(["orders", "list", "--all", "--json"])).stdout) as Array<{ id: number }>;
    expect(all.map((order) => order.id)).toEqual([1, 2, 3]);
    const one = await petstore(["orders", "list", "--limit", "1"]);
    expect(one.stdout.split("\n")).toHaveLength(2);
    expect(one.stderr).toMatch(/Showing the first 1 order; more exist/);
  });

  it("on a terminal: a table, and the beta notice once a day, remembered in the state", async () => {
    // One state shared by both runs, as one XDG_STATE_HOME would be.
    const state = memoryStateStore();
    const first = await petstore(["orders", "list"], { tty: true, state });
    expect(stripVTControlCharacters(first.stdout).split("\n")[0]?.split(/\s+/)).toEqual(["ID", "PET", "STATUS", "CREATED", "UPDATED"]);
    expect(stripVTControlCharacters(first.stderr)).toMatch(NOTICE);
    // Stripped: on a terminal the label is coloured, and the raw text would never match.
    expect(stripVTControlCharacters((await petstore(["inventory"], { tty: true, state })).stderr)).not.toMatch(NOTICE);
    // Piped, never: a script's stderr is for errors.
    expect((await petstore(["inventory"])).stderr).toBe("");
  });
});
