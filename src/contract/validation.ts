import type * as z from "zod";

/**
 * Turns the first schema issue into one sentence that names the field and the rule,
 * e.g. `name: must not be empty` or `unknown field "id" (the service assigns it)`.
 */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "the body is invalid";
  if (issue.code === "unrecognized_keys") {
    const field = issue.keys[0] ?? "";
    const why = field === "id" ? " (the service assigns it)" : "";
    // Any JSON string can be a field name: echo a bounded part of it.
    return `unknown field "${field.length > 40 ? `${field.slice(0, 40)}…` : field}"${why}`;
  }
  const path = issue.path.map(String).join(".");
  if (path === "" && issue.code === "invalid_type") return "the body must be a JSON object";
  return path ? `${path}: ${issue.message}` : issue.message;
}
