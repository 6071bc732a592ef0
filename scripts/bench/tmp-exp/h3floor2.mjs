// h3 floor: same toNodeListener as petstore, a guard-like middleware returning FastResponse with similar headers
import { createServer } from "node:http";
import { H3 } from "h3";
import { NodeRequest, sendNodeResponse } from "srvx/node";
import { FastResponse } from "srvx/node";
import { makePets } from "../lib/seed.mjs";
const pets = makePets(20);
const MODE = process.env.MODE || "h3";
const app = new H3();
app.use(async (event, next) => {
  const r = await next();
  const headers = [["content-type", "application/json;charset=UTF-8"],["x-ratelimit-limit","1000000000"],["x-ratelimit-remaining","999999"],["x-ratelimit-reset","1795493040"],["ratelimit-policy",'"minute";q=1000000000;w=60, "day";q=1000000000000;w=86400'],["ratelimit",'"minute";r=999999999;t=54, "day";r=999999941550;t=71814'],["x-request-id","f3f6e4aa-b8a3-4695-89d8-8161a9852289"],["x-content-type-options","nosniff"],["cache-control","no-store"],["etag",'"page-j9l9Lb3xAoCgfZoS5iLYRlk9yiVc3EKl"'],["link",'<http://127.0.0.1:3999/v1/pets?limit=20&cursor=cDIw>; rel="next"']];
  return new FastResponse(JSON.stringify(r), { status: 200, statusText: "OK", headers });
});
app.get("/v1/pets", () => pets);
let handler;
if (MODE === "h3") handler = (req, res) => { const a = app.fetch(new NodeRequest({ req, res })); if (a instanceof Promise) a.then((r) => sendNodeResponse(res, r)); else sendNodeResponse(res, a); };
else handler = (req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(pets)); };
const server = createServer(handler);
server.keepAliveTimeout = 5000;
server.listen(0, "127.0.0.1", () => console.log(`listening on ${server.address().port}`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
