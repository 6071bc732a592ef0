// One pipelined connection to Redis, made for the one command every request sends (the rate-limit
// script). The commands of all the requests handled in one turn of the event loop go out in one
// write, at the end of that turn (setImmediate); the replies come back in order on the same
// connection. ioredis flushed its automatic pipeline on process.nextTick, which comes after each
// request's own socket read, so it wrote once per request, and on loopback each write also pays
// for the receiving side: in a CPU profile over PostgreSQL + Redis, writing to Redis was a large
// share of the server's time.
import { performance } from "node:perf_hooks";
import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { redisAddress, type RedisAddress } from "./redis-address.js";
import { RedisReplyError, RespReader, type RespValue } from "./resp-reader.js";

export type RespArgument = string | number;

export interface RespConnectionOptions {
  /** A command not answered within this many ms is rejected (its request is then answered 503). */
  commandTimeoutMs: number;
  /** A connection (TCP, TLS, AUTH, SELECT) not ready within this many ms is given up. */
  connectTimeoutMs: number;
  /** CLIENT SETNAME, so that `CLIENT LIST` on the Redis side says who is connected. */
  clientName?: string;
  /** Told once when a ready connection is lost (every command then fails at once), with why. */
  onDown?: (error: Error) => void;
  /** Told when a lost connection is ready again. */
  onUp?: () => void;
}

interface Pending {
  resolve: (value: RespValue) => void;
  reject: (error: Error) => void;
  /** performance.now() when it was asked for. */
  at: number;
  /** Rejected for its deadline: its reply, should it still come, is read and dropped. */
  expired: boolean;
}

/** How often the oldest unanswered command is held against the deadline. */
const DEADLINE_CHECK_MS = 100;
/** A connection whose oldest command has waited this many deadlines is taken for dead and replaced. */
const DEAD_AFTER_DEADLINES = 5;
const KEEPALIVE_MS = 30_000;
/** Answered commands dropped from the front of the queue this many at a time. */
const COMPACT_AFTER = 1_024;

/** Waits before reconnection attempt n: as ioredis did, 50 ms more each time, at most 2 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 50, 2_000);
}

/**
 * Connects to the Redis of `url` and resolves once it is ready (authenticated, its database
 * selected); rejects with why when that fails. Once open, a lost connection is made again by
 * itself, and while it is lost every command fails at once instead of waiting in a queue.
 */
export async function openRespConnection(url: string, options: RespConnectionOptions): Promise<RespConnection> {
  const connection = new RespConnection(redisAddress(url), options);
  await connection.connect();
  return connection;
}

export class RespConnection {
  readonly #address: RedisAddress;
  readonly #options: RespConnectionOptions;
  #socket: Socket | undefined;
  #ready = false;
  /** Opened once: from then on a lost connection is made again. */
  #opened = false;
  #closing = false;
  #attempts = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  /** Unanswered commands in the order they were written; answered from `#head` on. */
  #pending: Pending[] = [];
  #head = 0;
  /** Every command before this index has been rejected for its deadline. */
  #expiredUpTo = 0;
  /** Commands asked for in this turn, written together at its end. */
  #out = "";
  #flushQueued = false;

  constructor(address: RedisAddress, options: RespConnectionOptions) {
    this.#address = address;
    this.#options = options;
  }

  /** Whether commands can be sent now. */
  get ready(): boolean {
    return this.#ready;
  }

  /** The first connection; rejects with why it could not be made. */
  async connect(): Promise<void> {
    await this.#attempt();
    this.#opened = true;
  }

  /** Sends one command, e.g. `call(["GET", "k"])`; rejects with RedisReplyError when Redis answers an error. */
  call(args: readonly RespArgument[]): Promise<RespValue> {
    if (!this.#ready) return Promise.reject(new Error(this.#closing ? "the connection to Redis is closed" : "not connected to Redis (reconnecting)"));
    return this.#send(encodeCommand(args));
  }

  /** Lets the commands already sent be answered, then closes; nothing is sent after. */
  async quit(): Promise<void> {
    this.#closing = true;
    clearTimeout(this.#reconnectTimer);
    const wasReady = this.#ready;
    this.#ready = false;
    const socket = this.#socket;
    if (!socket) return;
    if (wasReady) await this.#send(encodeCommand(["QUIT"])).catch(() => undefined);
    socket.destroy();
  }

  #send(command: string): Promise<RespValue> {
    this.#out += command;
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      setImmediate(this.#flush);
    }
    return new Promise((resolve, reject) => this.#pending.push({ resolve, reject, at: performance.now(), expired: false }));
  }

  readonly #flush = (): void => {
    this.#flushQueued = false;
    const out = this.#out;
    this.#out = "";
    // A connection lost since rejected these commands already; they are not sent elsewhere.
    if (out !== "" && this.#socket && !this.#socket.destroyed) this.#socket.write(out);
  };

  /** One connection attempt: TCP (or TLS), then AUTH, SELECT and CLIENT SETNAME in one write. */
  #attempt(): Promise<void> {
    const { host, port, tls } = this.#address;
    return new Promise<void>((resolve, reject) => {
      const socket = tls ? connectTls({ host, port, servername: isIP(host) === 0 ? host : undefined }) : connectTcp({ host, port });
      this.#socket = socket;
      socket.setNoDelay(true);
      socket.setKeepAlive(true, KEEPALIVE_MS);
      let failure: Error | undefined;
      const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${this.#options.connectTimeoutMs} ms`)), this.#options.connectTimeoutMs);
      const reader = new RespReader((reply) => this.#answer(reply));
      socket.on("data", (chunk: Buffer) => {
        try {
          reader.feed(chunk);
        } catch (error) {
          socket.destroy(error as Error);
        }
      });
      socket.on("error", (error) => (failure = error));
      socket.on("close", () => {
        clearTimeout(timer);
        const error = failure ?? new Error("Redis closed the connection");
        this.#lost(socket, error);
        reject(error);
      });
      socket.once(tls ? "secureConnect" : "connect", () => {
        this.#handshake().then(
          () => {
            clearTimeout(timer);
            this.#ready = true;
            this.#deadlineTimer = setInterval(this.#enforceDeadline, DEADLINE_CHECK_MS).unref();
            resolve();
          },
          (error: Error) => socket.destroy(error),
        );
      });
    });
  }

  #handshake(): Promise<unknown> {
    const { username, password, db } = this.#address;
    const commands: RespArgument[][] = [];
    if (password !== undefined) commands.push(username === undefined ? ["AUTH", password] : ["AUTH", username, password]);
    if (db !== 0) commands.push(["SELECT", db]);
    if (this.#options.clientName) commands.push(["CLIENT", "SETNAME", this.#options.clientName]);
    return Promise.all(commands.map((command) => this.#send(encodeCommand(command))));
  }

  #answer(reply: RespValue | RedisReplyError): void {
    const pending = this.#pending[this.#head++];
    // Under steady load the queue never empties (the next turn's commands wait behind these
    // replies): drop the answered part now and then rather than let the array grow.
    if (this.#head >= COMPACT_AFTER) this.#compact();
    if (pending === undefined || pending.expired) return;
    if (reply instanceof RedisReplyError) pending.reject(reply);
    else pending.resolve(reply);
  }

  #compact(): void {
    this.#pending = this.#pending.slice(this.#head);
    this.#expiredUpTo = Math.max(0, this.#expiredUpTo - this.#head);
    this.#head = 0;
  }

  /** Rejects what has waited past the deadline; replaces a connection that stopped answering altogether. */
  readonly #enforceDeadline = (): void => {
    const now = performance.now();
    const deadline = now - this.#options.commandTimeoutMs;
    let i = Math.max(this.#head, this.#expiredUpTo);
    for (; i < this.#pending.length; i++) {
      const pending = this.#pending[i]!;
      if (pending.at > deadline) break;
      pending.expired = true;
      pending.reject(new Error(`Redis did not answer within ${this.#options.commandTimeoutMs} ms`));
    }
    this.#expiredUpTo = i;
    const oldest = this.#pending[this.#head];
    if (oldest && now - oldest.at > DEAD_AFTER_DEADLINES * this.#options.commandTimeoutMs) {
      this.#socket?.destroy(new Error(`Redis has not answered for ${Math.round(now - oldest.at)} ms`));
    }
  };

  /** The socket closed: its unanswered commands fail, and an opened connection is made again. */
  #lost(socket: Socket, error: Error): void {
    if (socket !== this.#socket) return;
    this.#socket = undefined;
    const wasReady = this.#ready;
    this.#ready = false;
    clearInterval(this.#deadlineTimer);
    const pending = this.#pending.slice(this.#head);
    this.#pending = [];
    this.#head = 0;
    this.#expiredUpTo = 0;
    this.#out = "";
    const lost = new Error(`the connection to Redis was lost: ${error.message}`);
    for (const each of pending) if (!each.expired) each.reject(lost);
    if (wasReady && !this.#closing) this.#options.onDown?.(error);
    if (this.#opened && !this.#closing) this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    this.#attempts++;
    this.#reconnectTimer = setTimeout(() => {
      this.#attempt().then(
        () => {
          this.#attempts = 0;
          this.#options.onUp?.();
        },
        // The attempt's close already scheduled the next one.
        () => undefined,
      );
    }, reconnectDelay(this.#attempts));
    // Reconnecting alone does not keep a process alive: the server's listener does that.
    this.#reconnectTimer.unref();
  }
}

/** A command in RESP: an array of bulk strings. */
export function encodeCommand(args: readonly RespArgument[]): string {
  let text = `*${args.length}\r\n`;
  for (const arg of args) {
    const value = typeof arg === "string" ? arg : String(arg);
    text += `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
  }
  return text;
}
