// Migration 6 (5 is another change's); migrations.ts lists it in its place. No import of the
// Migration type from there: that would be a cycle.

/** Keys that end: an expiry, and the previous secret of a rotation with the end of its grace period. */
export const KEY_LIFETIMES_MIGRATION = {
  version: 6,
  description: "keys that expire and keys rotated with a grace period",
  sql: `
    ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
    -- The secret a rotation replaced. Kept in the row (not in one instance's memory) so every
    -- instance accepts it until previous_hash_until, and none after. Unique: findByHash looks it up.
    ALTER TABLE api_keys ADD COLUMN previous_hash text CONSTRAINT api_keys_previous_hash_key UNIQUE;
    ALTER TABLE api_keys ADD COLUMN previous_hash_until timestamptz;
    ALTER TABLE api_keys ADD COLUMN rotated_at timestamptz;
  `,
};
