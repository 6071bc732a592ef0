// Stands in for chalk's vendored supports-color in petstore's bundle. Evaluating the real one calls
// tty.isatty(1) and tty.isatty(2), and node:tty loads node:net and node:stream: about a tenth of
// `petstore --help` piped. petstore never uses chalk's own detection: every Chalk it makes gets
// the level petstore decided (src/cli/output/colors.ts: --color, NO_COLOR, FORCE_COLOR, TERM=dumb).
"use strict";

module.exports = { stdout: false, stderr: false };
