import { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** How long a refused body may keep arriving after the answer before the connection is cut. */
export const LINGER_MS = 2_000;

/**
 * Arranges a lingering close for a request whose body is refused while it still arrives (413).
 *
 * The answer carries `Connection: close`, and Node closes the socket as soon as the answer is
 * written. Closing a socket whose receive buffer still holds unread bytes makes the kernel send
 * a RST instead of a FIN, and a client that had not yet read the answer loses it: it sees a
 * reset, not the 413 (seen once in CI with a 10 MB chunked body). As nginx does
 * (`lingering_close`), the answer and the FIN go out first; what still arrives is read and
 * discarded until the client hangs up, or for at most {@link LINGER_MS}, and only then is the
 * socket destroyed.
 */
export function lingerAfterRefusal(req: unknown): void {
  // HTTP/1.1 only: an HTTP/2 stream is reset on its own, without closing the connection.
  if (!(req instanceof IncomingMessage)) return;
  const socket = req.socket;
  // The body's web stream is abandoned: with no listener left, the rest drains into the void
  // instead of filling that stream's queue, so the kernel buffer keeps emptying.
  req.removeAllListeners("data");
  req.resume();
  lingerOnClose(socket);
}

/**
 * Node ends a `Connection: close` answer with socket.destroySoon(), which destroys the socket the
 * moment the answer is flushed. This socket closes the gentle way instead: FIN, then what still
 * arrives is discarded until the client hangs up or LINGER_MS pass.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    const cut = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once("close", () => clearTimeout(cut));
    this.once("end", () => this.destroy());
    if (this.writable) this.end();
    this.resume();
  };
}
