// Our Standard Webhooks signing, judged by the reference library (`standardwebhooks` on npm): what
// it verifies is what any receiver using a Standard Webhooks library will accept.
import { randomBytes } from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhook, webhookSecretProblem } from "../../src/support/standard-webhooks.js";

const now = () => Math.floor(Date.now() / 1000);
const BODY = JSON.stringify({ type: "pet.created", id: 7, at: "2026-01-02T03:04:05.000Z", data: { id: 3, name: "Rex \u00e9\u{1f415}", categoryId: 2, status: "available" } });

describe("newWebhookSecret", () => {
  it("is whsec_ and the base64 of the 32 random bytes it is given", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, n) => n * 7);
    const secret = newWebhookSecret(() => bytes);
    expect(secret).toBe(`whsec_${Buffer.from(bytes).toString("base64")}`);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretProblem(secret)).toBeUndefined();
  });

  it("refuses a random source that gives the wrong number of bytes", () => {
    expect(() => newWebhookSecret(() => new Uint8Array(16))).toThrow(/16 bytes, not 32/);
  });
});

describe("signWebhook, verified by the standardwebhooks library", () => {
  it("is accepted with the secret it was signed with, and gives back the body", () => {
    const secret = newWebhookSecret(randomBytes);
    const headers = signWebhook({ id: "evt_7", timestamp: now(), body: BODY, secrets: [secret] });
    expect(Object.keys(headers)).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(headers["webhook-id"]).toBe("evt_7");
    expect(headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
  });

  it("signs exactly as the library does for the same id, time and body", () => {
    const secret = newWebhookSecret(randomBytes);
    const timestamp = 1_674_087_231;
    const ours = signWebhook({ id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", timestamp, body: BODY, secrets: [secret] });
    expect(ours["webhook-signature"]).toBe(new Webhook(secret).sign("msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", new Date(timestamp * 1000), BODY));
  });

  it("is refused with another secret", () => {
    const headers = signWebhook({ id: "evt_7", timestamp: now(), body: BODY, secrets: [newWebhookSecret(randomBytes)] });
    expect(() => new Webhook(newWebhookSecret(randomBytes)).verify(BODY, { ...headers })).toThrow(WebhookVerificationError);
  });

  it("is refused when one character of the body, the id or the timestamp changed", () => {
    const secret = newWebhookSecret(randomBytes);
    const headers = signWebhook({ id: "evt_7", timestamp: now(), body: BODY, secrets: [secret] });
    const verify = (body: string, changed: Record<string, string>) => () => new Webhook(secret).verify(body, { ...headers, ...changed });
    expect(verify(BODY.replace('"id":3', '"id":4'), {})).toThrow(WebhookVerificationError);
    expect(verify(`${BODY} `, {})).toThrow(WebhookVerificationError);
    expect(verify(BODY, { "webhook-id": "evt_8" })).toThrow(WebhookVerificationError);
    expect(verify(BODY, { "webhook-timestamp": String(Number(headers["webhook-timestamp"]) - 1) })).toThrow(WebhookVerificationError);
  });

  it("sends one signature per secret, so a receiver holding either secret of a rotation accepts", () => {
    const [old, current] = [newWebhookSecret(randomBytes), newWebhookSecret(randomBytes)];
    const headers = signWebhook({ id: "evt_9", timestamp: now(), body: BODY, secrets: [current, old] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(current).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
    expect(new Webhook(old).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
    expect(() => new Webhook(newWebhookSecret(randomBytes)).verify(BODY, { ...headers })).toThrow(WebhookVerificationError);
  });

  it.each([
    [{ id: "evt.7" }, /without spaces or dots/],
    [{ id: "" }, /without spaces or dots/],
    [{ id: "evt 7" }, /without spaces or dots/],
    [{ id: "evt_7\r\nx-injected: 1" }, /without spaces or dots/],
    [{ timestamp: 1.5 }, /whole seconds/],
    [{ timestamp: -1 }, /whole seconds/],
    [{ secrets: [] }, /at least one secret/],
    [{ secrets: ["whsec_short"] }, /standard base64|bytes/],
  ])("refuses to sign with %j", (change, message) => {
    const message_ = { id: "evt_7", timestamp: now(), body: BODY, secrets: [newWebhookSecret(randomBytes)], ...change };
    expect(() => signWebhook(message_)).toThrow(message);
  });
});

describe("webhookSecretProblem", () => {
  const base64Of = (size: number) => Buffer.alloc(size, 1).toString("base64");
  it.each([
    ["sk_live_abc", /starts with whsec_/],
    [`${base64Of(32)}`, /starts with whsec_/],
    [`whsec_${base64Of(32).replace(/=$/, "")}`, /standard base64/],
    [`whsec_${base64Of(32).replace(/\+|\//g, "-")}x`, /standard base64/],
    [`whsec_${Buffer.alloc(32, 0xfb).toString("base64url")}`, /standard base64/],
    ["whsec_", /24 to 64 bytes, not 0/],
    [`whsec_${base64Of(23)}`, /24 to 64 bytes, not 23/],
    [`whsec_${base64Of(65)}`, /24 to 64 bytes, not 65/],
  ])("%s: %s", (secret, problem) => {
    expect(webhookSecretProblem(secret)).toMatch(problem);
    expect(webhookSecretProblem(secret)).not.toContain(secret.slice(6) || "never");
  });

  it.each([24, 32, 64])("accepts %i bytes, and the library reads the same key", (size) => {
    const secret = `whsec_${randomBytes(size).toString("base64")}`;
    expect(webhookSecretProblem(secret)).toBeUndefined();
    const headers = signWebhook({ id: "evt_1", timestamp: now(), body: "{}", secrets: [secret] });
    expect(new Webhook(secret).verify("{}", { ...headers })).toEqual({});
  });
});
