// The other common rival: express 5 with express-rate-limit 8 (draft-8 RateLimit headers) and
// the same bearer check as a middleware, written as their documentation shows. Prints the port.
import express from "express";
import { rateLimit } from "express-rate-limit";
import { announce, keyOf, LIMIT_PER_MINUTE, page } from "./common.mjs";

const app = express();

app.use((request, response, next) => {
  const key = keyOf(request.get("authorization"));
  if (!key) return response.status(401).json({ code: "unauthorized", message: "the API key is not valid", status: 401 });
  response.locals.apiKey = key;
  next();
});
app.use(
  rateLimit({
    windowMs: 60_000,
    limit: LIMIT_PER_MINUTE,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (_request, response) => response.locals.apiKey.id,
  }),
);

app.get("/v1/pets", (request, response) => {
  response.json(page(request.query.limit));
});

const server = app.listen(0, "127.0.0.1", () => announce(server.address().port, () => new Promise((done) => server.close(done))));
