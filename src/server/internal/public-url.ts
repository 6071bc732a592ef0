// Where the links the server writes (Link: rel="next", rel="successor-version") point. With
// --public-url, always there; without, at the origin the request named (its Host header, or an
// absolute-form target), which a client can choose: behind a proxy that rewrites Host, or on a
// server reachable under several names, set --public-url.
import type { H3Event } from "h3";

declare module "h3" {
  interface H3EventContext {
    /** The configured public URL, without a trailing slash (see linkBase). */
    publicUrl?: string;
  }
}

/** The start of every link in an answer: the public URL when configured, else the request's origin. */
export function linkBase(event: H3Event): string {
  return event.context.publicUrl ?? event.url.origin;
}
