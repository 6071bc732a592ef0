// Stands in, inside the single executable, for what listhen imports only for features petstore
// never turns on (file watching, tunnels, the clipboard, opening a browser, WebSockets): each is a
// lazy import() in listhen, so nothing loads this unless one of them is asked for.
"use strict";

throw new Error("this listhen feature (watch, tunnel, clipboard, open, WebSocket) is not part of petstore's executable");
