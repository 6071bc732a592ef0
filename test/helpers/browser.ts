// Debian's Chromium, headless, driven by puppeteer-core (no browser download): one browser per
// test file, and a page that records everything that would show as an error in its console.
import puppeteer, { type Browser, type Page } from "puppeteer-core";

export const CHROMIUM = process.env.PUPPETEER_EXECUTABLE_PATH ?? "/usr/bin/chromium";

/** `acceptInsecureCerts`: trust a self-signed certificate (serve --https), as a person clicking through would. */
export async function launchBrowser(options: { acceptInsecureCerts?: boolean } = {}): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    acceptInsecureCerts: options.acceptInsecureCerts ?? false,
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions, failed requests and answers >= 400, in order. */
  problems: string[];
  /** Every URL the page requested. */
  requests: string[];
}

/** A new page whose console errors, page errors and failed requests are collected. */
export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error instanceof Error ? error.message : String(error)}`));
  page.on("request", (request) => requests.push(request.url()));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  return { page, problems, requests };
}
