// The bootstrap admin key's notice: how to use the key, and where the server is when the client
// would not find it by default.
import { describe, expect, it } from "vitest";
import { LOCAL_BASE_URL } from "../../src/contract/constants.js";
import { ensureAdminKey } from "../../src/server/keys/admin-keys.js";
import { createLogger } from "../../src/server/request-log.js";
import { openMemoryStore } from "../../src/store/memory/open-memory-store.js";

async function notice(baseUrl: string): Promise<string> {
  const store = await openMemoryStore();
  let stderr = "";
  const now = () => Date.UTC(2026, 10, 22, 12);
  await ensureAdminKey(store.keys, createLogger({ write: (chunk: string) => (stderr += chunk) }, { quiet: true, now }), now, baseUrl);
  await ensureAdminKey(store.keys, createLogger({ write: (chunk: string) => (stderr += `again: ${chunk}`) }, { quiet: true, now }), now, baseUrl);
  return stderr;
}

describe("the bootstrap admin key notice", () => {
  it("at the client's default address: the key and how to use it, no base URL", async () => {
    const text = await notice(LOCAL_BASE_URL);
    expect(text).toMatch(/^Created an admin API key; it is shown only this once:\n {2}ps_[0-9A-Za-z]{40}\nUse it with: export PETSTORE_API_KEY=ps_/);
    expect(text).not.toContain("PETSTORE_BASE_URL");
    expect(text).not.toContain("again:");
  });

  it("anywhere else: also the base URL to export", async () => {
    expect(await notice("https://127.0.0.1:8443/v1")).toContain("export PETSTORE_BASE_URL=https://127.0.0.1:8443/v1\n");
  });
});
