import type { H3Event } from "h3";
import { openApiJson } from "../../contract/openapi.js";

/** GET /v1/openapi.json: the document, built on the first request and reused as a string. */
export function getOpenApi(event: H3Event): string {
  event.res.headers.set("content-type", "application/json;charset=UTF-8");
  return openApiJson();
}
