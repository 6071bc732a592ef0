import type * as z from "zod";

/**
 * The first issue of a failed parse, as every message about it needs it: the field it names
 * (a dotted path; for an unknown field, that field's own path) and what is wrong with it. The
 * request body, the db file and the limits config each word their sentence from this.
 */
export type IssueSummary =
  | { kind: "unknown_field"; field: string; key: string }
  | { kind: "not_an_object"; rule: string }
  | { kind: "rule"; field: string; rule: string };

export function summarizeIssue(error: z.ZodError): IssueSummary | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "";
    return { kind: "unknown_field", field: [...path, key].join("."), key };
  }
  if (path.length === 0 && issue.code === "invalid_type") return { kind: "not_an_object", rule: issue.message };
  return { kind: "rule", field: path.join("."), rule: issue.message };
}

/** `field: rule`, or the rule alone when it names no field. */
export function fieldAndRule(summary: { field: string; rule: string }): string {
  return summary.field ? `${summary.field}: ${summary.rule}` : summary.rule;
}

/**
 * Turns the first schema issue into one sentence that names the field and the rule,
 * e.g. `name: must not be empty` or `unknown field "id" (the service assigns it)`.
 */
export function describeIssue(error: z.ZodError): string {
  const summary = summarizeIssue(error);
  if (!summary) return "the body is invalid";
  if (summary.kind === "not_an_object") return "the body must be a JSON object";
  if (summary.kind === "rule") return fieldAndRule(summary);
  const why = summary.key === "id" ? " (the service assigns it)" : "";
  // Any JSON string can be a field name: echo a bounded part of it.
  const key = summary.key;
  return `unknown field "${key.length > 40 ? `${key.slice(0, 40)}…` : key}"${why}`;
}
