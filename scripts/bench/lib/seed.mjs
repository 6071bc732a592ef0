// The data every server under test starts from: the same pets for petstore and json-server,
// and petstore's keys written straight into its lowdb file (src/store/lowdb/file-schema.ts).
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";

const STATUSES = ["available", "pending", "sold"];

/** Limits no bench run can reach: the load key must never be refused. */
export const UNLIMITED = { perMinute: 1_000_000_000, perDay: 1_000_000_000_000 };

export const SECRETS = {
  admin: "ps_bench_admin_00000000000000000000000000000",
  load: "ps_bench_load_000000000000000000000000000000",
  exhausted: "ps_bench_exhausted_0000000000000000000000000",
  // The load key's limits, but only the scope that GET /v1/pets needs.
  scoped: "ps_bench_scoped_0000000000000000000000000000",
  // Never stored: every request with it is a 401.
  unknown: "ps_bench_unknown_000000000000000000000000000",
};

const petN = (id) => `Pet ${id}`;

/** Pets 1..count, named by `nameOf(id)`; a third of them of each status, so `status=sold` pages are a third of the store. */
export function makePets(count, nameOf = petN) {
  const pets = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = i + 1;
    pets[i] = { id, name: nameOf(id), categoryId: (id % 10) + 1, status: STATUSES[id % 3] };
  }
  return pets;
}

/** Writes a petstore db file: `count` pets (named by `nameOf`), an admin key, the load key, a scoped one and an exhausted key. */
export async function writePetstoreDb(path, count, nameOf = petN) {
  const createdAt = new Date().toISOString();
  const key = (id, secret, fields) => ({
    id,
    hash: createHash("sha256").update(secret, "utf8").digest("hex"),
    prefix: secret.slice(0, 9),
    name: id,
    createdAt,
    revokedAt: null,
    lastUsedAt: null,
    ...fields,
  });
  const keys = [
    key("key_benchadmin", SECRETS.admin, { plan: "enterprise", admin: true, limits: UNLIMITED }),
    key("key_benchload", SECRETS.load, { plan: "enterprise", admin: false, limits: UNLIMITED }),
    key("key_benchscoped", SECRETS.scoped, { plan: "enterprise", admin: false, limits: UNLIMITED, scopes: ["pets:read"] }),
    key("key_benchexhausted", SECRETS.exhausted, {
      plan: "enterprise",
      admin: false,
      limits: { perMinute: 1, perDay: 1 },
    }),
  ];
  await writeFile(path, JSON.stringify({ version: 1, nextPetId: count + 1, pets: makePets(count, nameOf), keys }));
}

/** Writes a json-server 0.17 db file with the same pets. */
export async function writeJsonServerDb(path, count) {
  await writeFile(path, JSON.stringify({ pets: makePets(count) }));
}
