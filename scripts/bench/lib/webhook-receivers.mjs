// The receiving side of the webhooks scenario: real HTTP servers on 127.0.0.1, one per endpoint,
// in a process of their own so that their CPU is not the server's and reading deliveries never
// delays the creates' clock. Forked by webhooks.mjs; messages over IPC:
//   in  { open: { healthy: n, silent: m, epoch } }  -> out { urls: { healthy: string[], silent: string[] } }
//   in  { start: true }                              (the creates begin: CPU counts from here)
//   in  { created: [[petId, at], ...], drainMs }     -> out { result: { latencies, missing, ... } }
//   in  { close: true }                              (closes every server and socket, then exits)
//
// Times are milliseconds since `epoch`, a reading of process.hrtime.bigint() that the parent
// takes and sends: that clock is CLOCK_MONOTONIC, one clock for every process of the machine, so
// an arrival here and a 201 there compare without the skew of two processes' timeOrigins.
//
// A healthy receiver answers 204 once the body is in; a delivery counts as arrived when its
// request's head is parsed (the `request` event, before the body), the moment the receiver sees
// it. The pet is named by the body (`data.id` of a pet.created event). A silent receiver accepts
// the connection, reads the request and never answers: what protects the other endpoints from it
// is the server's own timeout and per-endpoint bound on deliveries in flight.
import { createServer } from "node:http";

let epoch = 0n;
const now = () => Number(process.hrtime.bigint() - epoch) / 1e6;

/** Per healthy endpoint: pet id -> first arrival; and how many arrived more than once. */
const endpoints = [];
const servers = [];
const silentSockets = new Set();
let silentRequests = 0;
let startCpu = process.cpuUsage();
let startWall = 0;

function healthyServer() {
  const endpoint = { arrivals: new Map(), duplicates: 0, unreadable: 0 };
  endpoints.push(endpoint);
  return createServer((request, response) => {
    const at = now();
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const petId = petIdOf(Buffer.concat(chunks));
      if (petId === undefined) endpoint.unreadable++;
      else if (endpoint.arrivals.has(petId)) endpoint.duplicates++;
      else endpoint.arrivals.set(petId, at);
      response.writeHead(204).end();
    });
  });
}

function silentServer() {
  const server = createServer(() => {
    silentRequests++;
  });
  server.on("connection", (socket) => {
    silentSockets.add(socket);
    socket.once("close", () => silentSockets.delete(socket));
  });
  // Node's own request timeout would answer 408 after 5 minutes; a silent receiver never answers.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  return server;
}

function petIdOf(body) {
  try {
    const event = JSON.parse(body.toString("utf8"));
    return event.type === "pet.created" && Number.isInteger(event.data?.id) ? event.data.id : undefined;
  } catch {
    return undefined;
  }
}

async function listen(server) {
  servers.push(server);
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return `http://127.0.0.1:${server.address().port}/hook`;
}

async function open({ healthy, silent, epoch: given }) {
  epoch = BigInt(given);
  const urls = { healthy: [], silent: [] };
  for (let n = 0; n < healthy; n++) urls.healthy.push(await listen(healthyServer()));
  for (let n = 0; n < silent; n++) urls.silent.push(await listen(silentServer()));
  return urls;
}

/**
 * Waits until every healthy endpoint has seen every created pet, or `drainMs` after the last
 * create; then latency per delivery = its arrival - the 201 of its create (at least 0: a delivery
 * can arrive before the creating process has read its 201).
 */
async function report(created, drainMs) {
  const deadline = now() + drainMs;
  const allIn = () => endpoints.every((endpoint) => created.every(([id]) => endpoint.arrivals.has(id)));
  while (!allIn() && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const drainedAfterMs = now() - (deadline - drainMs);
  const cpu = process.cpuUsage(startCpu);
  const latencies = [];
  const missingPerEndpoint = [];
  for (const endpoint of endpoints) {
    let missing = 0;
    for (const [id, at] of created) {
      const arrived = endpoint.arrivals.get(id);
      if (arrived === undefined) missing++;
      else latencies.push(Math.max(0, arrived - at));
    }
    missingPerEndpoint.push(missing);
  }
  return {
    latencies,
    missing: missingPerEndpoint.reduce((sum, n) => sum + n, 0),
    missingPerEndpoint,
    duplicates: endpoints.reduce((sum, endpoint) => sum + endpoint.duplicates, 0),
    unreadable: endpoints.reduce((sum, endpoint) => sum + endpoint.unreadable, 0),
    silentRequests,
    drainedAfterMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: now() - startWall,
  };
}

process.on("message", (message) => {
  if (message.open) open(message.open).then((urls) => process.send({ urls }), (error) => process.send({ failed: String(error) }));
  if (message.start) {
    startCpu = process.cpuUsage();
    startWall = now();
  }
  if (message.created) report(message.created, message.drainMs).then((result) => process.send({ result }));
  if (message.close) {
    for (const socket of silentSockets) socket.destroy();
    for (const server of servers) server.closeAllConnections?.();
    Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() => process.disconnect());
  }
});
