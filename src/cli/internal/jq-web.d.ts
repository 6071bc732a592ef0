// Types for jq-web, which ships none: its module.exports is a promise of jq compiled to WebAssembly.
declare module "jq-web" {
  /** A failed run: jq's exit status (3 for a compile error, 5 at run time) and what it wrote on stderr. */
  export interface JqRunError extends Error {
    exitCode?: number;
    stderr?: string;
  }
  export interface Jq {
    /** `echo <input> | jq <flags> <filter>`: stdout, less one final newline; undefined when jq printed nothing. */
    raw(input: string, filter: string, flags?: string[]): string | undefined;
  }
}
