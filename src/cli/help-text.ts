import { fitText } from "./output/fit-lines.js";
import { DEFAULT_BASE_URL, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from "./settings.js";

/** A block of `petstore --help`: a title, then items (a term and its text) or paragraphs. */
interface Section {
  title: string;
  /** The width of the term column, text aligned after it. */
  termWidth?: number;
  /** Where a paragraph continues: under its start, or (a command line) two further in. */
  hang?: number;
  lines: (string | [term: string, text: string])[];
}

const SECTIONS: Section[] = [
  {
    title: "Examples:",
    hang: 4,
    lines: [
      "$ petstore pets list --status available",
      "$ petstore --env staging pets add --name Rex --category 1",
      '$ petstore pets update 42 --status sold --if-match "pet-42-3"',
      "$ petstore config set api-key - --env production < key.txt",
      "$ petstore keys create --plan pro --name ci",
    ],
  },
  {
    title: "Environment variables:",
    termWidth: 17,
    lines: [
      ["PETSTORE_BASE_URL", `API base URL (default ${DEFAULT_BASE_URL})`],
      ["PETSTORE_ENV", "a profile of the config file: production, staging, ..."],
      ["PETSTORE_API_KEY", "API key, sent as Authorization: Bearer <key>"],
      ["PETSTORE_CONFIG", "config file (default $XDG_CONFIG_HOME/petstore/config.json, else ~/.config/petstore/config.json)"],
      ["NO_COLOR", "no colour (as TERM=dumb does) unless --color always"],
      "serve also reads PETSTORE_PORT, PETSTORE_HOST, PETSTORE_DB, PETSTORE_ADMIN_KEY and PETSTORE_SERVE_CONFIG (see petstore serve --help).",
      "A flag wins over the environment, which wins over the config file (the --env profile, else its top level), which wins over " +
        "the default. The base URL and the key go in pairs: a key from the environment or a profile is never sent to a base URL " +
        "from elsewhere (exit 2); to mean it, give both as flags.",
    ],
  },
  {
    title: "Output:",
    lines: [
      "Data goes to stdout: a table on a terminal, tab-separated lines (no header) when piped, JSON with --json. Progress, notices " +
        'and errors go to stderr: "Error: <message> (<code>, HTTP <status>)" and a hint, or with --json the JSON Error object. ' +
        `Each request times out after --timeout ms (default ${DEFAULT_TIMEOUT_MS}); a 429 is retried up to --retries times ` +
        `(default ${DEFAULT_RETRIES}) after its Retry-After; a request safe to repeat also after a lost connection, a timeout and ` +
        "502/503/504: GET, PATCH, DELETE, and POST, which carries one Idempotency-Key on all its attempts so a create is never " +
        "made twice. All the waits of a request together stay under --max-wait seconds.",
    ],
  },
  {
    title: "Exit codes:",
    termWidth: 1,
    lines: [
      ["0", "success"],
      ["1", "any other failure (HTTP 400, 412 from --if-match, 5xx, unexpected answers)"],
      ["2", "usage error: a bad command, flag or argument; nothing was sent"],
      ["3", "not authenticated or not allowed (HTTP 401, 403)"],
      ["4", "not found (HTTP 404)"],
      ["5", "still rate-limited after the retries (HTTP 429)"],
      ["6", "server unreachable, or no answer within --timeout"],
    ],
  },
];

const INDENT = 2;
const GAP = 2;

/** Printed after `petstore --help`: where settings come from, the output, the exit codes; wrapped to `width`. */
export function programHelp(width: number): string {
  return SECTIONS.map((section) => `\n${section.title}\n${section.lines.map((line) => helpLine(line, section, width)).join("")}`).join("");
}

/** An item's text continues under itself; a paragraph under its own start. */
function helpLine(line: Section["lines"][number], section: Section, width: number): string {
  const indent = " ".repeat(INDENT);
  const termWidth = section.termWidth ?? 0;
  if (typeof line === "string") return fitText(`${indent}${line}\n`, width, section.hang ?? INDENT);
  const [term, text] = line;
  return fitText(`${indent}${term.padEnd(termWidth)}${" ".repeat(GAP)}${text}\n`, width, INDENT + termWidth + GAP);
}
