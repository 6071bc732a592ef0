// Stands in for undici's lib/dispatcher/client-h2.js in petstore's bundle. undici only calls it
// when a connection negotiated HTTP/2 through ALPN, which its clients do only with `allowH2`,
// and petstore's never sets it. Loading the real module costs node:http2 and node:tls at every
// start of every command, about a tenth of `pets list`'s start-up.
"use strict";

module.exports = function connectH2() {
  throw new Error("petstore's HTTP client speaks HTTP/1.1 only: HTTP/2 is left out of its bundle");
};
