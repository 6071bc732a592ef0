// `petstore webhooks ...` through the built CLI against a real server (subprocesses both), with a
// real receiver on 127.0.0.1 (hence --webhooks-allow-private): add -> list -> test -> deliveries ->
// remove, the secret judged by the standardwebhooks package on a real delivery.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { startServeProcess, type ServeProcess } from "../../helpers/serve-process.js";
import { startReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.js";
import { runCli, type RunOptions } from "../helpers/run-cli.js";

let server: ServeProcess;
let receiver: WebhookReceiver;
beforeAll(async () => {
  server = await startServeProcess({ args: ["--webhooks-allow-private"] });
  receiver = await startReceiver();
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

const petstore = (args: string[], options: RunOptions = {}) =>
  runCli(args, { ...options, env: { PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: server.adminKey, NO_COLOR: "1", ...options.env } });

async function waitForDelivery(id: number, status: string): Promise<string[]> {
  for (let tries = 0; tries < 100; tries++) {
    const rows = (await petstore(["webhooks", "deliveries", String(id)])).stdout.trim().split("\n").map((line) => line.split("\t"));
    const row = rows.find((cells) => cells[2] === "webhook.test");
    if (row?.[3] === status) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the webhook.test delivery of webhook ${id} never became ${status}`);
}

describe("webhooks: add, list, test, deliveries, remove", () => {
  it("goes through an endpoint's life, and the secret add printed verifies a real delivery", async () => {
    const added = await petstore(["webhooks", "add", receiver.url, "--types", "pet.created,order.created", "--description", "smoke"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{43}=\n$/);
    const secret = added.stdout.trim();
    expect(added.stderr).toMatch(/^Added webhook (\d+) → http:\/\/127\.0\.0\.1:\d+\/hook \(pet\.created, order\.created\)\.\n/);
    expect(added.stderr).toContain("Warning: save the signing secret now: it is not shown again.\n");
    expect(added.stderr).not.toContain(secret);
    const id = Number(/webhook (\d+)/.exec(added.stderr)?.[1]);

    const listed = await petstore(["webhooks", "list"]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toContain(`${id}\t${receiver.url}\tpet.created,order.created\ttrue\tsmoke\t`);
    expect(listed.stdout).not.toContain(secret);

    const tested = await petstore(["webhooks", "test", String(id), "--json", "type,status"]);
    expect(tested).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(tested.stdout)).toMatchObject({ type: "webhook.test" });
    const [request] = await receiver.waitFor(1);
    const payload = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>) as { type: string };
    expect(payload.type).toBe("webhook.test");

    const row = await waitForDelivery(id, "succeeded");
    expect(row.slice(1, 6)).toEqual(["", "webhook.test", "succeeded", "1", "200"]);

    const refused = await petstore(["webhooks", "remove", String(id)]);
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.stderr).toContain("add --yes");
    const removed = await petstore(["webhooks", "remove", String(id), "--yes"]);
    expect(removed).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const gone = await petstore(["webhooks", "get", String(id)]);
    expect(gone).toMatchObject({ code: 4, stdout: "" });
    expect(gone.stderr).toMatch(/^Error: .+ \(not_found, HTTP 404\)\n/);
  });

  it("on a terminal: a table, and the secret still alone on stdout", async () => {
    const added = await petstore(["webhooks", "add", receiver.url], { tty: true });
    expect(added.stdout).toMatch(/^whsec_\S+\n$/);
    const listed = await petstore(["webhooks", "list"], { tty: true });
    expect(listed.stdout.split("\n")[0]).toMatch(/^ID\s+URL\s+TYPES\s+STATE\s+DESCRIPTION\s+CREATED/);
  });

  it("refuses bad input before sending (exit 2), and a non-admin key is exit 3", async () => {
    const bad = await petstore(["webhooks", "add", "ftp://127.0.0.1/hook"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("must be an http or https URL");
    const key = (await petstore(["keys", "create", "--plan", "free"])).stdout.trim();
    const forbidden = await petstore(["webhooks", "list"], { env: { PETSTORE_API_KEY: key } });
    expect(forbidden).toMatchObject({ code: 3, stdout: "" });
    expect(forbidden.stderr).toMatch(/\(forbidden, HTTP 403\)/);
  });
});
