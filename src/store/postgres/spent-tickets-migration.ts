// Migration 8; migrations.ts lists it in its place. No import of the Migration type from there:
// that would be a cycle.

/** The event-stream tickets already used, so that each opens one stream once across instances. */
export const SPENT_TICKETS_MIGRATION = {
  version: 8,
  description: "event-stream tickets already used",
  sql: `
    -- A ticket's id (its random part, never a secret) until the ticket expires; the INSERT of a
    -- second use conflicts on the primary key, whichever instance it reaches.
    CREATE TABLE spent_event_tickets (
      id text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX spent_event_tickets_expires_at ON spent_event_tickets (expires_at);
  `,
};
