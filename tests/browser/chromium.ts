import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";

function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/**
 * Browser tests run when Debian's Chromium is installed (`apt-get install -y chromium`). Without it they are
 * reported as ignored with this reason, except under CI=true, where a missing browser fails the run.
 */
export const browserTestOptions = (() => {
  const present = hasChromium();
  if (!present && Deno.env.get("CI") === "true") {
    throw new Error(
      `CI=true but Chromium is missing at ${CHROMIUM}: install it with apt-get install -y chromium`,
    );
  }
  if (!present) {
    console.warn(
      `Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`,
    );
  }
  return { ignore: !present, sanitizeResources: false, sanitizeOps: false };
})();

/**
 * How long a navigation (goto, reload, waitForURL, waitForLoadState) may take: a page's first load in a fresh
 * Chromium compiles the client's modules, and on a 2-core machine with a load of 30-40 it took 10 s for home and
 * more than 30 s (Playwright's default) for a workspace chat. Other waits keep their timeouts.
 */
export const NAVIGATION_TIMEOUT_MS = 90_000;

/** Chromium, with NAVIGATION_TIMEOUT_MS on every page of every context (browser.newPage makes a context too). */
export async function launchChromium(): Promise<Browser> {
  const browser = await launchBare();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    // Set on each page, so that it outranks a test's own page.setDefaultTimeout (which is for the other waits).
    context.on("page", (page) => page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS));
    return context;
  };
  return browser;
}

async function launchBare(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-quic",
      "--no-first-run",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Collects console errors and page errors, so a test can assert that hydration went cleanly. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/**
 * Waits until every island on the page has hydrated. A page opened with `waitUntil: "commit"` may have no
 * document element yet.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement?.dataset.hydrated === "true");
}

export const SCREENSHOTS = new URL("../../test-results/", import.meta.url);

/**
 * Console errors other than Chrome's report of a call answered 4xx/5xx, for tests that provoke such answers on
 * purpose and check the calls themselves by address.
 */
export const pageErrors = (errors: string[]) =>
  errors.filter((error) => !/Failed to load resource: the server responded with a status of/.test(error));
