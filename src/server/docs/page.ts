// Our own files of the /docs page: the HTML, the script that starts Swagger UI, and its styles.
// Served as files rather than inline, so the Content-Security-Policy needs no 'unsafe-inline'.
import { API_PREFIX } from "../../contract/constants.js";

export const DOCS_PATH = "/docs";

/**
 * What the page may load: its own scripts, styles, images (Swagger UI's CSS draws its icons as
 * data: URLs) and calls to this origin. Nothing else, no framing, no form posts, no plugins.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const DOCS_HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>petstore API reference</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="stylesheet" href="${DOCS_PATH}/docs.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/docs-init.js"></script>
  </body>
</html>
`;

/**
 * Starts Swagger UI on the live document of this server. The document names the production and
 * staging hosts; the page's "Try it out" calls this server instead (and connect-src allows only
 * this origin anyway). validatorUrl: null, or Swagger UI would load a badge from swagger.io.
 */
export const DOCS_INIT_JS = `"use strict";
(function () {
  var base = new URL("${API_PREFIX}", window.location.href).href;
  fetch(base + "/openapi.json", { headers: { accept: "application/json" } })
    .then(function (response) {
      if (!response.ok) throw new Error("GET " + base + "/openapi.json: " + response.status);
      return response.json();
    })
    .then(function (spec) {
      spec.servers = [{ url: base, description: "This server" }];
      window.ui = SwaggerUIBundle({
        spec: spec,
        dom_id: "#swagger-ui",
        deepLinking: true,
        validatorUrl: null,
        displayRequestDuration: true,
        presets: [SwaggerUIBundle.presets.apis],
        layout: "BaseLayout",
      });
    })
    .catch(function (error) {
      var message = document.createElement("p");
      message.className = "docs-error";
      message.textContent = "Could not load the API document: " + error.message;
      document.getElementById("swagger-ui").appendChild(message);
    });
})();
`;

export const DOCS_CSS = `html { box-sizing: border-box; overflow-y: scroll; }
*, *::before, *::after { box-sizing: inherit; }
body { margin: 0; background: #fafafa; }
.docs-error { font-family: sans-serif; color: #a40000; margin: 2em; }
`;
