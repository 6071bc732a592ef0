// The soak's load: a fixed rate of mixed requests (reads, writes, orders, a few bad ones), one
// tiny-plan key that runs into 429s, and one event stream read all along. It remembers every
// acknowledged write, so the end can check that each one is there (and each delete is gone).
import { Agent, request } from "undici";

// Out of 100 requests of the main key.
const MIX = [
  ["list", 28], ["get", 22], ["create", 12], ["update", 10], ["delete", 11],
  ["placeOrder", 3], ["advanceOrder", 6], ["listOrders", 3], ["inventory", 2], ["bad", 5],
];
const SCHEDULE = MIX.flatMap(([name, weight]) => Array(weight).fill(name));

// One create or order in ten carries an Idempotency-Key, as from a client that retries: each
// record is kept 24 h by design, so a key on every create would grow the data all run long.
const idempotencyKey = (key) => (Number(key.replace(/\D/g, "")) % 10 === 0 ? { "idempotency-key": key } : {});

export function createTraffic({ baseUrl, key, tinyKey }) {
  const agent = new Agent({ connections: 16, pipelining: 1, keepAliveTimeout: 30_000 });
  const stats = { sent: 0, byStatus: new Map(), unexpected: [], fiveXx: 0, tiny429: 0, tinyServed: 0, latenciesMs: [], inFlightMax: 0 };
  const book = { live: new Map(), busy: new Set(), deleted: new Set(), orderedPets: new Map(), orders: new Map(), creates: 0 };
  let inFlight = 0;
  let seq = 0;

  async function call(name, method, path, { body, contentType = "application/json", expect, useKey = key, headers = {} } = {}) {
    stats.sent++;
    inFlight++;
    stats.inFlightMax = Math.max(stats.inFlightMax, inFlight);
    const started = performance.now();
    try {
      const response = await request(`${baseUrl}${path}`, {
        method,
        dispatcher: agent,
        headers: { authorization: `Bearer ${useKey}`, ...(body === undefined ? {} : { "content-type": contentType }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const text = await response.body.text();
      const status = response.statusCode;
      stats.latenciesMs.push(performance.now() - started);
      stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
      if (status >= 500) stats.fiveXx++;
      if (!expect.includes(status) && stats.unexpected.length < 50) stats.unexpected.push(`${name} ${method} ${path} -> ${status} ${text.slice(0, 200)}`);
      return { status, json: text && response.headers["content-type"]?.startsWith("application/json") ? JSON.parse(text) : undefined };
    } catch (error) {
      stats.byStatus.set("network", (stats.byStatus.get("network") ?? 0) + 1);
      if (stats.unexpected.length < 50) stats.unexpected.push(`${name} ${method} ${path} -> ${error.message}`);
      return { status: 0 };
    } finally {
      inFlight--;
    }
  }

  /** A live pet nobody is changing right now, taken out of the pool while it is used. */
  function takePet() {
    for (const id of book.live.keys()) {
      if (!book.busy.has(id)) {
        book.busy.add(id);
        return id;
      }
    }
    return undefined;
  }

  const ops = {
    list: () => call("list", "GET", "/pets?limit=20", { expect: [200] }),
    inventory: () => call("inventory", "GET", "/store/inventory", { expect: [200] }),
    listOrders: () => call("listOrders", "GET", "/store/orders?limit=20", { expect: [200] }),
    get: async () => {
      const ids = [...book.live.keys()];
      if (ids.length === 0) return ops.list();
      return call("get", "GET", `/pets/${ids[Math.floor(Math.random() * ids.length)]}`, { expect: [200, 404] });
    },
    create: async () => {
      const name = `soak-${++seq}`;
      const answer = await call("create", "POST", "/pets", { body: { name, categoryId: 1 + (seq % 5) }, headers: idempotencyKey(`soak-${seq}`), expect: [201] });
      if (answer.status === 201) {
        book.creates++;
        book.live.set(answer.json.id, name);
      }
    },
    update: async () => {
      const id = takePet();
      if (id === undefined) return ops.create();
      const name = `${book.live.get(id)}u`.slice(-100);
      const answer = await call("update", "PATCH", `/pets/${id}`, { body: { name }, contentType: "application/merge-patch+json", expect: [200] });
      if (answer.status === 200) book.live.set(id, name);
      book.busy.delete(id);
    },
    delete: async () => {
      // Keep a few hundred pets around, so reads have something to find.
      if (book.live.size < 300) return ops.create();
      const id = takePet();
      if (id === undefined) return ops.create();
      const answer = await call("delete", "DELETE", `/pets/${id}`, { expect: [204] });
      if (answer.status === 204) {
        book.live.delete(id);
        book.deleted.add(id);
      }
      book.busy.delete(id);
    },
    placeOrder: async () => {
      const petId = takePet();
      if (petId === undefined) return ops.create();
      const answer = await call("placeOrder", "POST", "/store/orders", { body: { petId }, headers: idempotencyKey(`soak-order-${petId}`), expect: [201] });
      book.busy.delete(petId);
      if (answer.status !== 201) return;
      book.orderedPets.set(petId, book.live.get(petId));
      book.live.delete(petId);
      book.orders.set(answer.json.id, { petId, status: "placed" });
    },
    // Moves one order a step on: placed -> approved -> delivered (the pet is then sold), and
    // then deletes its sold pet, so pets held by orders do not pile up.
    advanceOrder: async () => {
      const entry = [...book.orders].find(([, order]) => order.status !== "moving" && !order.petDeleted);
      if (!entry) return ops.listOrders();
      const [orderId, order] = entry;
      const from = order.status;
      order.status = "moving";
      if (from === "delivered") {
        const answer = await call("deletePetSold", "DELETE", `/pets/${order.petId}`, { expect: [204] });
        order.status = from;
        if (answer.status !== 204) return;
        order.petDeleted = true;
        book.orderedPets.delete(order.petId);
        book.deleted.add(order.petId);
        return;
      }
      const to = from === "placed" ? "approved" : "delivered";
      const answer = await call("advanceOrder", "PATCH", `/store/orders/${orderId}`, { body: { status: to }, contentType: "application/merge-patch+json", expect: [200] });
      order.status = answer.status === 200 ? to : from;
    },
    // Provoked: each is a 4xx the server must answer with its Error body, never a 5xx.
    bad: () => {
      const which = seq++ % 3;
      if (which === 0) return call("bad", "POST", "/pets", { body: { name: "", categoryId: -1 }, expect: [400] });
      if (which === 1) return call("bad", "GET", "/pets/not-a-number", { expect: [400] });
      // Anonymous callers share one bucket per address (60/min): past it, 429 instead of 401.
      return call("bad", "GET", "/pets", { useKey: "ps_soak_unknown_key_000000000000000000000", expect: [401, 429] });
    },
  };

  const pending = new Set();
  const track = (promise) => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
  };

  return {
    stats,
    book,
    /** Sends `rate` requests a second until stop(); the tiny key once a second. */
    run(rate) {
      const start = performance.now();
      let n = 0;
      let stopped = false;
      const tick = () => {
        if (stopped) return;
        const due = Math.floor(((performance.now() - start) * rate) / 1000);
        for (; n < due; n++) track(ops[SCHEDULE[n % SCHEDULE.length]]());
        setTimeout(tick, 5);
      };
      tick();
      const tiny = setInterval(() => {
        track(
          call("tiny", "GET", "/pets?limit=1", { useKey: tinyKey, expect: [200, 429] }).then((answer) => {
            if (answer.status === 429) stats.tiny429++;
            if (answer.status === 200) stats.tinyServed++;
          }),
        );
      }, 1000);
      return async () => {
        stopped = true;
        clearInterval(tiny);
        while (pending.size > 0) await Promise.all([...pending]);
      };
    },
    call,
    close: () => agent.close(),
  };
}

/** Opens GET /v1/events and counts what arrives until close(); a stream the server ends is counted too. */
export async function followEvents({ baseUrl, key }) {
  const controller = new AbortController();
  const seen = { events: 0, created: 0, endedByServer: 0, error: undefined };
  const response = await fetch(`${baseUrl}/events`, { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" }, signal: controller.signal });
  if (response.status !== 200) throw new Error(`GET /v1/events: ${response.status} ${await response.text()}`);
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true });
        const lines = buffered.split("\n");
        buffered = lines.pop();
        for (const line of lines) {
          if (line.startsWith("id: ")) seen.events++;
          if (line === "event: pet.created") seen.created++;
        }
      }
      seen.endedByServer++;
    } catch (error) {
      if (!controller.signal.aborted) seen.error = error.message;
    }
  })();
  return {
    seen,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}
