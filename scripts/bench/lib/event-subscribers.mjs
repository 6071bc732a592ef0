// The subscriber side of the events scenario, in a process of its own so that reading a
// thousand streams never delays the creates' clock (or the other way round). Forked by
// events.mjs; messages over IPC:
//   in  { open: { origin, path, secrets: string[] } }  -> out { opened: n } or { failed }
//   in  { start: true }                                 (the creates begin: CPU counts from here)
//   in  { created: [[petId, at], ...] }                 -> out { result: { latencies, missing, cpuMs, wallMs } }
// Times are absolute (timeOrigin + now) so the two processes' clocks compare.
//
// Each stream is a bare socket with a hand-written GET: the HTTP parser and a readable stream per
// response cost more than the server's own writes did. A pet's event counts as arrived when the
// bytes up to the end of its event ("\n\n") are in; chunk-size lines between events are skipped
// by the scan (the server writes whole events, and a parse error would show as missing events).
import { connect } from "node:net";

const MARK = Buffer.from('"data":{"id":');
const END = Buffer.from("\n\n");
const MAX_PET_ID = 1 << 22;
const arrival = new Float64Array(MAX_PET_ID);
const seenBy = new Uint16Array(MAX_PET_ID);
const sockets = [];
const EMPTY = Buffer.alloc(0);
let startCpu;
let startWall;

const now = () => performance.timeOrigin + performance.now();

/**
 * Scans the complete events in `buffer` (up to its last "\n\n"); returns the bytes to keep for the
 * next chunk. The events of one stream all have the shape of the last (one pet each), so the next
 * mark is searched from a little short of the last distance between two: a search through every
 * byte of a million events a second was most of this process's CPU. An event more than 32 bytes
 * shorter than the one before would be skipped, and counted as missing, not as delivered.
 */
function scan(buffer, at) {
  const end = buffer.lastIndexOf(END);
  if (end < 0) return buffer;
  let skip = MARK.length;
  for (let from = buffer.indexOf(MARK), last = -1; from >= 0 && from < end; last = from, from = buffer.indexOf(MARK, from + skip)) {
    if (last >= 0) skip = Math.max(MARK.length, from - last - 32);
    let id = 0;
    for (let n = from + MARK.length; ; n++) {
      const digit = buffer[n] - 48;
      if (digit < 0 || digit > 9) break;
      id = id * 10 + digit;
    }
    if (id < MAX_PET_ID) {
      if (at > arrival[id]) arrival[id] = at;
      seenBy[id]++;
    }
  }
  const rest = buffer.subarray(end + END.length);
  // Only the end of an HTTP chunk ("\r\n", perhaps the next one's size line): nothing to keep.
  return CHUNK_FRAMING.test(rest.latin1Slice(0, Math.min(rest.length, 16))) && rest.length <= 16 ? EMPTY : rest;
}

const CHUNK_FRAMING = /^[0-9a-fA-F\r\n]*$/;

// Every socket reads into this one buffer (node's `onread`): a read is scanned before the next
// starts, so none needs its own, and no Buffer is allocated nor 'data' event emitted per read.
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

function openOne(url, path, secret) {
  return new Promise((resolve, reject) => {
    let head = true;
    let rest = Buffer.alloc(0);
    const socket = connect({ host: url.hostname, port: Number(url.port), onread: { buffer: READ_BUFFER, callback: onRead } });
    socket.setNoDelay(true);
    socket.once("error", reject);
    socket.on("connect", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${secret}\r\nAccept: text/event-stream\r\n\r\n`),
    );
    function onRead(length, chunk) {
      const at = now();
      const read = chunk.subarray(0, length);
      let buffer = rest.length === 0 ? read : Buffer.concat([rest, read]);
      if (head) {
        const headEnd = buffer.indexOf("\r\n\r\n");
        if (headEnd < 0) return void (rest = Buffer.from(buffer));
        const status = buffer.subarray(0, 12).toString("latin1");
        if (!status.startsWith("HTTP/1.1 200")) return void reject(new Error(`stream: ${buffer.subarray(0, headEnd).toString("latin1")}`));
        head = false;
        buffer = buffer.subarray(headEnd + 4);
        resolve(socket);
      }
      // Copied when kept: the read buffer is the next read's too.
      const kept = scan(buffer, at);
      rest = kept.length === 0 ? EMPTY : Buffer.from(kept);
    }
  });
}

async function open({ origin, path, secrets }) {
  const url = new URL(origin);
  // A few at a time: a thousand connects at once overflow the listen backlog.
  for (let n = 0; n < secrets.length; n += 50) {
    sockets.push(...(await Promise.all(secrets.slice(n, n + 50).map((secret) => openOne(url, path, secret)))));
  }
  startCpu = process.cpuUsage();
  startWall = now();
}

async function report(created) {
  const deadline = now() + 5_000;
  const allIn = () => created.every(([id]) => seenBy[id] >= sockets.length);
  while (!allIn() && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(startCpu);
  const latencies = [];
  let missing = 0;
  for (const [id, at] of created) {
    missing += Math.max(0, sockets.length - seenBy[id]);
    if (seenBy[id] > 0) latencies.push(Math.max(0, arrival[id] - at));
  }
  return { latencies, missing, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: now() - startWall };
}

process.on("message", (message) => {
  if (message.open) open(message.open).then(() => process.send({ opened: sockets.length }), (error) => process.send({ failed: String(error) }));
  if (message.start) {
    startCpu = process.cpuUsage();
    startWall = now();
  }
  if (message.created) report(message.created).then((result) => process.send({ result }));
  if (message.close) {
    for (const socket of sockets) socket.destroy();
    process.disconnect();
  }
});
