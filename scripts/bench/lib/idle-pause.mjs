// A control for scenario 7: a process that does nothing but the same 5 ms timer, measured the
// same way for the same time. What it shows is the machine, not petstore. Prints one JSON line.
// argv: <seconds>
import { measureLoop } from "./loop-stalls.mjs";

const seconds = Number(process.argv[2]);
const ticking = setInterval(() => {}, 5);
const measured = await measureLoop(seconds);
clearInterval(ticking);
console.log(JSON.stringify(measured));
