// Takes docs/api.md's picture of GET /docs: the built CLI's `serve` on a free port and a throwaway
// db, two pets, then Debian's headless Chromium (puppeteer-core, no download) at 1280 px wide.
// Run after `npm run build`:  node scripts/screenshot-docs.mjs [docs/docs-page.png]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const out = process.argv[2] ?? fileURLToPath(new URL("../docs/docs-page.png", import.meta.url));
const bin = fileURLToPath(new URL("../bin/petstore.js", import.meta.url));
const adminKey = "ps_screenshot_admin_key_0123456789abcdef";
const dir = await mkdtemp(join(tmpdir(), "petstore-screenshot-"));

const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--db", join(dir, "db.json"), "--quiet"], {
  env: { ...process.env, PETSTORE_ADMIN_KEY: adminKey, PETSTORE_LOG_FORMAT: "text" },
  stdio: ["ignore", "pipe", "inherit"],
});
try {
  const docsUrl = await new Promise((resolve, reject) => {
    let stdout = "";
    server.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      const match = /API reference on (\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    server.once("exit", (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const base = new URL("/v1", docsUrl).href;
  for (const pet of [{ name: "Rex", categoryId: 1 }, { name: "Tom", categoryId: 2 }]) {
    await fetch(`${base}/pets`, { method: "POST", headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" }, body: JSON.stringify(pet) });
  }
  const browser = await puppeteer.launch({ executablePath: process.env.PUPPETEER_EXECUTABLE_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless=new"] });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1100 });
    await page.goto(docsUrl);
    await page.waitForSelector(".opblock");
    // Scrolled to where the operations begin, one of them tried: what a reader comes for.
    await page.click(".btn.authorize");
    await page.type("#auth-bearer-value", adminKey);
    await page.click(".modal-ux .auth-btn-wrapper .authorize");
    await page.click(".modal-ux .btn-done");
    await page.$eval(".scheme-container", (element) => element.scrollIntoView());
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  await rm(dir, { recursive: true, force: true });
}
