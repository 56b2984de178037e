// Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core (which
// never downloads a browser), a fresh empty profile per launch, and a page runner that collects
// everything a test should fail on (console errors, uncaught errors, failed or 4xx/5xx requests).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium on a new empty profile; `close()` ends it and deletes the profile. */
export async function launchBrowser() {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'handoff-graph-chromium-'));
  let context;
  try {
    // A persistent context is how Playwright takes a --user-data-dir of our choosing.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      timeout: 20_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
  return {
    context,
    version: context.browser()?.version() ?? 'unknown',
    async close() {
      try {
        await context.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}

/** Starts things in order and stops them in reverse, whatever happens in between. */
export async function using(fn) {
  const stack = [];
  let failed = true;
  try {
    const result = await fn((resource) => {
      stack.push(resource);
      return resource;
    });
    failed = false;
    return result;
  } finally {
    const errors = [];
    for (const resource of stack.reverse()) {
      try {
        await resource.close();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0 && !failed) throw errors[0];  // else the test's own error wins
  }
}

/**
 * Opens `url` in a new page of `context` and waits for the page to settle `window.__done`
 * (see page-setup.js). Returns the outcome and what happened on the way; closes the page.
 */
export async function runPage(context, url, { timeout = 15_000 } = {}) {
  const page = await context.newPage();
  const log = { console: [], pageErrors: [], responses: [], failedRequests: [] };
  page.on('console', (m) => log.console.push({ type: m.type(), text: m.text(), url: m.location()?.url }));
  page.on('pageerror', (e) => log.pageErrors.push(String(e?.stack ?? e)));
  page.on('response', (r) =>
    log.responses.push({ url: r.url(), status: r.status(), contentType: r.headers()['content-type'] ?? null }),
  );
  page.on('requestfailed', (r) => log.failedRequests.push({ url: r.url(), error: r.failure()?.errorText }));
  let timer;
  try {
    const response = await page.goto(url, { waitUntil: 'load', timeout });
    log.documentHeaders = response?.headers() ?? {};
    const outcome = await Promise.race([
      page.evaluate(() => window.__done),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${url}: no outcome after ${timeout} ms; ${JSON.stringify(problems(log))}`)),
          timeout,
        );
      }),
    ]);
    return { outcome, ...log };
  } finally {
    clearTimeout(timer);
    await page.close();
  }
}

/** What a page run should not have had: console errors, uncaught errors, failed requests. */
export function problems(log) {
  return [
    ...log.console.filter((m) => m.type === 'error' || m.type === 'assert').map((m) => `console.${m.type}: ${m.text}`),
    ...log.pageErrors.map((e) => `page error: ${e}`),
    ...log.failedRequests.map((r) => `request failed: ${r.url} (${r.error})`),
    ...log.responses.filter((r) => r.status >= 400).map((r) => `HTTP ${r.status}: ${r.url}`),
  ];
}

/** The responses whose path (without query) is `pathname`. */
export function responsesFor(log, pathname) {
  return log.responses.filter((r) => new URL(r.url).pathname === pathname);
}
