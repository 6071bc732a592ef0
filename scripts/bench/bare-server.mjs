// The physical limit of this machine for scenario 1: node:http returning the same 20 pets,
// serialised per request as petstore does. Prints the port it listens on.
import { createServer } from "node:http";
import { makePets } from "./lib/seed.mjs";

const pets = makePets(20);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(pets));
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => console.log(`listening on ${server.address().port}`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
