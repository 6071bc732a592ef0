// The rival a Node engineer would write instead of petstore: fastify 5 with @fastify/rate-limit
// keyed by API key (one window, its own headers) and an onRequest bearer hook, written as their
// documentation shows. Prints the port it listens on.
import rateLimit from "@fastify/rate-limit";
import Fastify from "fastify";
import { announce, keyOf, LIMIT_PER_MINUTE, page } from "./common.mjs";

const app = Fastify({ logger: false });

app.decorateRequest("apiKey", null);
app.addHook("onRequest", async (request, reply) => {
  const key = keyOf(request.headers.authorization);
  if (!key) return reply.code(401).send({ code: "unauthorized", message: "the API key is not valid", status: 401 });
  request.apiKey = key;
});
await app.register(rateLimit, {
  max: LIMIT_PER_MINUTE,
  timeWindow: "1 minute",
  keyGenerator: (request) => request.apiKey?.id ?? request.ip,
});

app.get("/v1/pets", async (request) => page(request.query.limit));

await app.listen({ port: 0, host: "127.0.0.1" });
announce(app.server.address().port, () => app.close());
