// Generated bad (and good) input for the server, and what docs/api.md says each must get:
// the oracles below are written from its rules, not from the server's code.
import fc from "fast-check";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const MAX_BODY = 64 * 1024;
const STATUSES = ["available", "pending", "sold"] as const;
const PLANS = ["free", "pro", "business", "enterprise"] as const;
const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export interface BodyCase {
  bytes: Uint8Array;
  /** undefined: no Content-Type header at all. */
  contentType: string | undefined;
}

export type BodyVerdict = { status: 201; value: Record<string, unknown> } | { status: number; code: string };

// ---------------------------------------------------------------- bodies

const text = (min: number, max: number) =>
  fc.oneof(
    fc.string({ minLength: min, maxLength: max }),
    fc.string({ minLength: min, maxLength: max, unit: "grapheme" }),
    fc.string({ minLength: min, maxLength: max, unit: "binary" }),
  );

const validPet = fc.record(
  { name: text(1, 200), categoryId: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constant(MAX_SAFE), fc.integer({ min: 1, max: MAX_SAFE })), status: fc.constantFrom(...STATUSES) },
  { requiredKeys: ["name", "categoryId"] },
);

const oddKey = fc.oneof(fc.constantFrom("id", "__proto__", "constructor", "toString", "Name", "name ", ""), fc.string({ maxLength: 12 }));

/** A valid pet with one field replaced by junk, removed, or joined by an unknown field. */
const mutatedPet = fc
  .tuple(validPet, fc.constantFrom("name", "categoryId", "status"), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined)), fc.option(fc.tuple(oddKey, fc.jsonValue({ maxDepth: 2 }))))
  .map(([pet, field, value, extra]) => {
    const body: Record<string, unknown> = { ...pet, [field]: value };
    if (extra) Object.defineProperty(body, extra[0], { value: extra[1], enumerable: true, configurable: true, writable: true });
    return JSON.stringify(body);
  });

/** Numbers JSON allows but a double cannot hold, and numbers JSON does not allow. */
const oddNumber = fc.constantFrom("1e400", "-1e400", "9007199254740992", "9007199254740993", "1.0", "1e2", "0.5", "-0", "1E0", "123456789012345678901234567890", "0x10", "01", "+1", "Infinity", "NaN", "1.", ".5", "1e", "-", "2e-400");
const hugeNumbers = fc.tuple(text(1, 20), oddNumber).map(([name, number]) => `{"name":${JSON.stringify(name)},"categoryId":${number}}`);

const deepNesting = fc.tuple(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom("[", '{"a":')).map(([depth, open]) => {
  const close = open === "[" ? "]" : "}";
  return `{"name":${open.repeat(depth)}1${close.repeat(depth)},"categoryId":1}`;
});

/** A valid body with keys repeated: JSON.parse keeps the last value of each (docs/api.md). */
const duplicateKeys = fc
  .tuple(validPet, fc.array(fc.tuple(fc.constantFrom("name", "categoryId", "status"), fc.oneof(fc.jsonValue({ maxDepth: 1 }), text(1, 10), fc.integer({ min: 1, max: 99 }))), { minLength: 1, maxLength: 4 }))
  .map(([pet, repeats]) => {
    const entries = [...Object.entries(pet), ...repeats].map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? "null"}`);
    return `{${entries.join(",")}}`;
  });

/** Byte sequences that are never valid UTF-8. */
const invalidUtf8 = fc.constantFrom([0xff], [0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc3]);
const withInvalidUtf8 = fc.tuple(validPet, invalidUtf8, fc.nat()).map(([pet, bad, at]) => {
  const bytes = encoder.encode(JSON.stringify(pet));
  const cut = at % (bytes.length + 1);
  return Uint8Array.from([...bytes.subarray(0, cut), ...bad, ...bytes.subarray(cut)]);
});

/** Around the 64 KiB limit: a valid pet padded with whitespace to the limit plus -2..+2 bytes. */
const nearLimit = fc.tuple(validPet, fc.integer({ min: -2, max: 2 })).map(([pet, delta]) => {
  const json = encoder.encode(JSON.stringify(pet));
  return Uint8Array.from([...json, ...new Uint8Array(Math.max(0, MAX_BODY + delta - json.length)).fill(0x20)]);
});

const emptyish = fc.constantFrom("", " ", "\n", "\ufeff", "null", "[]", "{}", '""', "0", "true");

export const petBody = fc.oneof(
  { weight: 5, arbitrary: validPet.map((pet) => JSON.stringify(pet)) },
  { weight: 4, arbitrary: mutatedPet },
  { weight: 2, arbitrary: hugeNumbers },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 2, arbitrary: duplicateKeys },
  { weight: 2, arbitrary: withInvalidUtf8 },
  { weight: 1, arbitrary: nearLimit },
  { weight: 1, arbitrary: emptyish },
  { weight: 1, arbitrary: validPet.map((pet) => `\ufeff${JSON.stringify(pet)}`) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300, unit: "binary" }) },
);

const validKey = fc.oneof(
  fc.record({ plan: fc.constantFrom("free", "pro", "business"), name: text(1, 100) }, { requiredKeys: ["plan"] }),
  fc.record({ plan: fc.constant("enterprise"), name: text(1, 100), perMinute: fc.integer({ min: 1, max: MAX_SAFE }), perDay: fc.integer({ min: 1, max: MAX_SAFE }) }, { requiredKeys: ["plan", "perMinute", "perDay"] }),
);

const mutatedKey = fc
  .tuple(validKey, fc.constantFrom("plan", "name", "perMinute", "perDay"), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constantFrom("gold", "", 0, -1, 1.5, 2 ** 53)))
  .map(([key, field, value]) => JSON.stringify({ ...key, [field]: value }));

export const keyBody = fc.oneof(
  { weight: 3, arbitrary: validKey.map((key) => JSON.stringify(key)) },
  { weight: 4, arbitrary: mutatedKey },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: withInvalidUtf8 },
  { weight: 1, arbitrary: emptyish },
);

export const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "Application/JSON",
      " application/json ;foo=bar",
      "application/json;charset=latin1",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "application/problem+json",
      "json",
      "",
      undefined,
    ),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[!-~][ -~]{0,40}$/) },
);

export function bodyCase(body: fc.Arbitrary<string | Uint8Array>): fc.Arbitrary<BodyCase> {
  return fc.record({ bytes: body.map((value) => (typeof value === "string" ? encoder.encode(value) : value)), contentType });
}

/** docs/api.md's "Bodies" rules, in its order: media type, size, UTF-8, JSON, then the schema. */
export function bodyVerdict(body: BodyCase, valid: (value: unknown) => boolean): BodyVerdict {
  const [mediaType, ...parameters] = body.contentType?.split(";") ?? [];
  if (mediaType?.trim().toLowerCase() !== "application/json") return { status: 415, code: "unsupported_media_type" };
  // JSON is UTF-8: a body labelled with any other charset is refused.
  const charset = parameters.find((parameter) => parameter.split("=")[0]?.trim().toLowerCase() === "charset");
  const charsetName = charset?.slice(charset.indexOf("=") + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase();
  if (charsetName !== undefined && charsetName !== "utf-8" && charsetName !== "utf8") return { status: 415, code: "unsupported_media_type" };
  if (body.bytes.length > MAX_BODY) return { status: 413, code: "payload_too_large" };
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(body.bytes));
  } catch {
    return { status: 400, code: "invalid_json" };
  }
  return valid(value) ? { status: 201, value: value as Record<string, unknown> } : { status: 400, code: "invalid_body" };
}

const characters = (value: string) => [...value].length;
const isText = (value: unknown, max: number) => typeof value === "string" && characters(value) >= 1 && characters(value) <= max;
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const onlyKeys = (value: Record<string, unknown>, allowed: string[]) => Object.keys(value).every((key) => allowed.includes(key));

/** docs/api.md "Pet fields": name 1..200 characters, categoryId 1..2^53-1, status one of three, nothing else. */
export function isValidNewPet(value: unknown): boolean {
  if (!isObject(value) || !onlyKeys(value, ["name", "categoryId", "status"])) return false;
  const statusOk = !("status" in value) || (STATUSES as readonly unknown[]).includes(value.status);
  return isText(value.name, 200) && isCount(value.categoryId) && statusOk;
}

/** docs/api.md "Admin API": a plan, an optional name (1..100), perMinute and perDay exactly for enterprise. */
export function isValidNewKey(value: unknown): boolean {
  if (!isObject(value) || !onlyKeys(value, ["plan", "name", "perMinute", "perDay"])) return false;
  if (!(PLANS as readonly unknown[]).includes(value.plan)) return false;
  if ("name" in value && !isText(value.name, 100)) return false;
  const limits = ["perMinute", "perDay"] as const;
  if (value.plan === "enterprise") return limits.every((field) => isCount(value[field]));
  return limits.every((field) => !(field in value));
}

// ---------------------------------------------------------------- query strings and paths

const queryName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("limit", "status", "cursor") },
  { weight: 2, arbitrary: fc.constantFrom("stauts", "LIMIT", "limit[]", "", "offset", "page", "status ", "%6Cimit") },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const queryValue = fc.oneof(
  fc.constantFrom("0", "1", "20", "100", "101", "007", "-1", "1e2", "1.0", "", " 5", "99999999999999999999", ...STATUSES, "Sold", "lost"),
  fc.constantFrom("%FF", "%zz", "%00", "%", "%E2%82", "cDE", "cDk5OTk5OTk5OTk5OTk5OTk5OTk", "AAAA", "p1"),
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.string({ maxLength: 20, unit: "binary" }),
);

/** Percent-encodes what a request target may not carry raw, leaving `%` as it is (it may be meant). */
const toTarget = (raw: string) => raw.replace(/[^!$&'()*+,\-./0-9:;=?@A-Z_a-z~%]/gu, (char) => encodeURIComponent(char));

/** The raw query text: pairs joined by `&`, sometimes with bare names, `+` and stray separators. */
export const rawQuery = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.tuple(queryName, queryValue).map(([name, value]) => `${toTarget(name)}=${toTarget(value)}`) }, { weight: 1, arbitrary: fc.constantFrom("", "&", "limit", "=", "==", "+", "status=+sold", "limit=1&&limit=2") }), { maxLength: 4 })
  .map((pairs) => pairs.join("&"));

export type QueryVerdict =
  | { status: 200; limit: number; filter: string | undefined }
  | { status: 400; name: string }
  /** A listPets parameter whose values this model does not judge (q, sort, categoryId): 200, or 400 naming a parameter. */
  | { status: "either"; name: string };

/** listPets' parameters beyond paging, which a random name can hit ("q" is one letter). */
const UNMODELLED = ["q", "sort", "categoryId"];

/** docs/api.md "Pagination" and "Strict query strings", read with the WHATWG URLSearchParams. */
export function queryVerdict(query: string): QueryVerdict {
  const seen = new Map<string, string>();
  // Through URL, as a server reads it: URLSearchParams alone would drop a leading "?".
  for (const [name, value] of new URL(`http://petstore.test/v1/pets?${query}`).searchParams) {
    if (UNMODELLED.includes(name) && !seen.has(name)) return { status: "either", name };
    if (!["limit", "status", "cursor"].includes(name) || seen.has(name)) return { status: 400, name };
    seen.set(name, value);
  }
  const limit = seen.get("limit");
  if (limit !== undefined && !(/^[1-9]\d*$/.test(limit) && Number(limit) <= 100)) return { status: 400, name: "limit" };
  const status = seen.get("status");
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) return { status: 400, name: "status" };
  return { status: 200, limit: limit === undefined ? 20 : Number(limit), filter: status };
}

/** Path segments: clean ones (letters, digits, `-`, `_`) and wild ones (escapes, dots, long). */
export const cleanSegment = fc.oneof(
  fc.integer({ min: 1, max: 5000 }).map(String),
  fc.constantFrom("0", "-1", "1.5", "1e3", "007", "9007199254740991", "9007199254740992", "99999999999999999999", "abc", "one", "_", "-"),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/),
);
export const wildSegment = fc.oneof(
  fc.constantFrom("%31", "%2F", "%2f1", "..", ".", "%2E%2E", "%00", "%zz", "%", "1;x", "1,2", "%E2%82%AC", "%FF", "1%20", "~", "!", "@", "*"),
  fc.string({ minLength: 1, maxLength: 30, unit: "binary" }).map(toTarget),
  fc.integer({ min: 100, max: 4000 }).map((length) => "9".repeat(length)),
);

/** docs/api.md "Authorization": a missing header, another scheme, a malformed or unknown key. */
export const badAuthorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom("", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token abc", "bearer", "Bearer a b", "Bearer\tps_x", "ps_abc", "Bearer ps_", "Digest username=x"),
  fc.stringMatching(/^ps_[0-9A-Za-z]{40}$/).map((key) => `Bearer ${key}`),
  fc.stringMatching(/^[0-9A-Za-z]{1,10} [!-~]{1,60}$/),
  fc.stringMatching(/^[!-~][ -~]{0,200}[!-~]$/),
);

/** The forms of a good key docs/api.md's "Bearer <key>" allows: the scheme in any case, spaces before the key. */
export const goodAuthorization = (key: string) =>
  fc.tuple(fc.constantFrom("Bearer", "bearer", "BEARER", "BeArEr"), fc.integer({ min: 1, max: 3 })).map(([scheme, spaces]) => `${scheme}${" ".repeat(spaces)}${key}`);
