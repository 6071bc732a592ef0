/** JSON for scripts: two-space indented, one trailing newline. */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
