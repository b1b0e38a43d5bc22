import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Locator, type Page } from 'playwright-core';
import { CLIENT_TIMINGS_KEY, type ClientTimings } from '../../src/core/timings';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
/** Where the journeys' one shared browser listens (browser-global.ts), handed to the workers through the environment. */
export const BROWSER_ENDPOINT_ENV = 'AISA_BROWSER_WS';

/** Debian's Chromium, headless, with the flags this closed network needs (no background connections). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** The same Chromium as a server that every journey file connects to, so a run starts one browser, not one per file. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * A journey's browser: the run's shared one when the e2e project started it (each file works in its own contexts,
 * and closing this only disconnects), else one of its own (the bench).
 */
export function journeyBrowser(): Promise<Browser> {
  const endpoint = process.env[BROWSER_ENDPOINT_ENV];
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}

export const PHONE_VIEWPORT = { width: 390, height: 844 };
export const DESKTOP_VIEWPORT = { width: 1366, height: 820 };
/** The looks a journey checks: each theme and each size once (dark on a desktop, light on a phone). */
export const LOOKS = [
  { theme: 'dark', phone: false },
  { theme: 'light', phone: true },
] as const;

/**
 * Screenshots are for people to look at: with SHOTS_DIR set they go to `SHOTS_DIR/<journey>/<name>.png`; unset (CI,
 * where nobody opens them), nothing is encoded or written. The states a look shows are reached and asserted either way.
 */
export function screenshots(journey: string): (target: Page | Locator, name: string, options?: { clip?: { x: number; y: number; width: number; height: number } }) => Promise<void> {
  const root = process.env.SHOTS_DIR;
  return async (target, name, options = {}) => {
    if (!root) return;
    const dir = path.join(root, journey);
    fs.mkdirSync(dir, { recursive: true });
    await target.screenshot({ path: path.join(dir, `${name}.png`), animations: 'disabled', ...options });
  };
}

/**
 * Client timers a journey shortens (src/core/timings.ts): a throttle a test clicks past, a list's polling a test
 * watches. Each page of the context starts with them; the product's own values are LIMITS'.
 */
export type PageTimings = Partial<ClientTimings>;

/** The submit and clone throttles of QUICK_THROTTLES: short enough not to wait for, long enough to drop a double click. */
export const QUICK_THROTTLE_MS = 150;
/** For a journey that clicks a throttled button again and again (a refusal, then the real submission). */
export const QUICK_THROTTLES: PageTimings = { submitThrottleMs: QUICK_THROTTLE_MS, cloneThrottleMs: QUICK_THROTTLE_MS };
/** Lets a QUICK_THROTTLES window pass, so the next click on a throttled button counts. */
export const pastQuickThrottle = (page: Page) => page.waitForTimeout(QUICK_THROTTLE_MS);

export async function newPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; theme?: 'dark' | 'light'; timings?: PageTimings } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
  if (options.theme) await context.addInitScript((t) => localStorage.setItem('aisa.theme', JSON.stringify(t)), options.theme);
  if (options.timings) {
    await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [CLIENT_TIMINGS_KEY, JSON.stringify(options.timings)] as const);
  }
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[page error]', err.message));
  return { context, page };
}

/** Blueprint toasts: the text of the latest one. */
export async function lastToast(page: Page): Promise<string> {
  const toast = page.locator('.bp6-toast').last();
  await toast.waitFor({ state: 'visible', timeout: 10_000 });
  return (await toast.innerText()).trim();
}

/**
 * What sticks out sideways: elements under `elements` that leave the viewport's width, and scrollers matched by
 * `scrollers` that are wider than themselves (content cut off by overflow-x: hidden counts too). Up to 10 lines.
 */
export function horizontalOverflow(page: Page, scrollers: string, elements = '.dock-panel *'): Promise<string[]> {
  return page.evaluate(
    ({ scrollers, elements }) => {
      const width = window.innerWidth;
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>(scrollers)) {
        if (el.offsetParent !== null && el.scrollWidth > el.clientWidth) out.push(`${el.className} scrolls ${el.scrollWidth} > ${el.clientWidth}`);
      }
      for (const el of document.querySelectorAll(elements)) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > width + 1 || r.left < -1)) out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      return out.slice(0, 10);
    },
    { scrollers, elements },
  );
}

/** Fills the login form (agreeing to the terms unless told not to) and submits it. */
export async function submitLogin(page: Page, username: string, password: string, agree = true): Promise<void> {
  await page.waitForSelector('[data-testid=login-submit]');
  await page.fill('#login-username', username);
  await page.fill('#login-password', password);
  if (agree) await page.click('.login-agreement .bp6-control-indicator');
  await page.click('[data-testid=login-submit]');
}
