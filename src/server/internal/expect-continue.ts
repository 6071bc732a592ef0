// `Expect: 100-continue` (RFC 9110 §10.1.1): the client waits before sending its body. Node
// answers `100 Continue` at once, before the key is checked and before a body too large is
// refused, so the client sends megabytes only to be told 401 or 413. Here the 100 goes out only
// when the app starts reading the body, that is once the request has passed the guard and the
// body's declared size; a final answer given before that closes the connection instead.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { lingerOnClose } from "./lingering-close.js";

const refused = new WeakSet<IncomingMessage>();

/** Serves requests that expect 100-continue through the usual request listeners, with the 100 held back. */
export function deferContinue(server: Server): void {
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    holdContinue(req, res);
    server.emit("request", req, res);
  });
}

/** The body will not be read (it is refused): no 100 is sent for it. */
export function refuseContinue(req: IncomingMessage): void {
  refused.add(req);
}

function holdContinue(req: IncomingMessage, res: ServerResponse): void {
  const keepAlive = res.shouldKeepAlive;
  // Until the 100 is sent, the client may or may not send its body: a final answer then ends the
  // connection (the bytes of an unsent body cannot be told from the next request).
  res.shouldKeepAlive = false;
  lingerOnClose(req.socket);
  // A Readable calls _read when its data is first wanted: by our body reader, or by node's own
  // drain after the answer (then the answer is out, and no 100 follows it).
  const read = req._read;
  req._read = function readAfterContinue(this: IncomingMessage, size: number) {
    req._read = read;
    if (!res.headersSent && !refused.has(req)) {
      res.writeContinue();
      res.shouldKeepAlive = keepAlive;
    }
    return read.call(this, size);
  };
}
