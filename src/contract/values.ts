// Plain values of the contract. Kept free of the schema library so the CLI can import
// them at start-up without paying for zod.

export const PET_STATUSES = ["available", "pending", "sold"] as const;
export type PetStatus = (typeof PET_STATUSES)[number];
export const DEFAULT_PET_STATUS: PetStatus = "available";

export const PLANS = ["free", "pro", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

export const PET_NAME_MAX_LENGTH = 200;
export const KEY_NAME_MAX_LENGTH = 100;
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 100;
export const LIST_LIMIT_DEFAULT = 20;
export const MAX_BODY_BYTES = 64 * 1024;

/** The path segment that carries the interface version, for production and staging alike. */
export const API_PREFIX = "/v1";
export const HEALTH_PATH = "/healthz";

/** getPet is deprecated (RFC 9745) since this instant and sunset (RFC 8594) at the next one. */
export const GET_PET_DEPRECATED_AT = Date.UTC(2026, 0, 1) / 1000;
export const GET_PET_SUNSET_HTTP_DATE = "Thu, 05 Dec 2030 00:00:00 GMT";

export const ERROR_CODES = [
  "invalid_parameter",
  "invalid_json",
  "invalid_body",
  "unsupported_media_type",
  "payload_too_large",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "rate_limited",
  "key_banned",
  "storage_unavailable",
  "internal_error",
  "malformed_request",
  "request_timeout",
  "headers_too_large",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
}

export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

export interface KeyLimits {
  perMinute: number;
  perDay: number;
}

/** A key as the admin API lists it: never the secret, never its hash. */
export interface KeyView {
  id: string;
  prefix: string;
  plan: Plan;
  name: string | null;
  admin: boolean;
  limits: KeyLimits;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The answer to POST /v1/keys: the only time the secret is shown. */
export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  plan: Plan;
  name: string | null;
  limits: KeyLimits;
  createdAt: string;
}

export interface NewKey {
  plan: Plan;
  name?: string;
  perMinute?: number;
  perDay?: number;
}

/**
 * A text's length as JSON Schema's maxLength (and so the server) counts it: in code points, so an
 * emoji is one character, not two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function isPetStatus(value: string): value is PetStatus {
  return (PET_STATUSES as readonly string[]).includes(value);
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}
