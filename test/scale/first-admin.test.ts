// The admin key bootstrap of several instances starting at once on one empty PostgreSQL
// database: check-then-create would give each its own admin key.
import { expect, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/open-postgres-store.js";
import { freshDatabase } from "../helpers/test-backend.js";
import { keyRecord } from "../store/support.js";

it("of concurrent createFirstAdmin calls through two stores on one database, exactly one creates", async () => {
  const { db } = await freshDatabase();
  const stores = await Promise.all([0, 1].map(() => openPostgresStore(db, { warn: () => undefined })));
  try {
    const attempts = Array.from({ length: 10 }, (_, n) =>
      stores[n % 2]!.keys.createFirstAdmin(keyRecord(`admin${n}`, { admin: true, plan: "enterprise" })),
    );
    expect((await Promise.all(attempts)).filter(Boolean)).toHaveLength(1);
    expect((await stores[1]!.keys.list()).filter((key) => key.admin)).toHaveLength(1);
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
});
