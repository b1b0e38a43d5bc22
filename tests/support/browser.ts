import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CLIENT_TIMINGS_KEY, type ClientTimings } from '../../src/core/timings';

/** Debian's Chromium (apt `chromium`), the browser people run, started headless. */
export const FULL_CHROMIUM = '/usr/bin/chromium';
/**
 * The same Debian build of Chromium as a headless shell (apt `chromium-headless-shell`, one source package with
 * `chromium`): the same Blink and V8 without the browser's own UI behind the page. Measured on the journeys, a page
 * costs a third less CPU in it (12 logged-in page loads: 22 CPU-s against 39), and CPU is what the suite runs out of.
 */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * Which Chromium a journey drives: `shell` (most journeys) takes the headless shell where it is installed and the
 * full browser otherwise; `full` always takes the full browser (the shell journey, so every run also drives it).
 * CHROMIUM_PATH overrides both.
 */
export type ChromiumKind = 'shell' | 'full';
export function chromiumPath(kind: ChromiumKind): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return kind === 'shell' && fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];
/** Debian's Chromium, headless, with the flags this closed network needs (no background connections); `args` adds to them. */
export function launchBrowser(args: string[] = [], kind: ChromiumKind = 'shell'): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(kind), headless: true, args: [...CHROMIUM_ARGS, ...args] });
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

/** Resolves after `count` animation frames: what an event just handled scheduled for its next paints (React's effects and the renders they cause) has run. */
export function frames(page: Page, count = 2): Promise<void> {
  return page.evaluate((n) => new Promise<void>((resolve) => {
    const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
    step(n);
  }), count);
}

/**
 * Waits until the page is at rest: fonts loaded, no finite animation or transition running (Blueprint's overlays,
 * popovers and collapses, React transition classes `-enter`/`-exit` gone), and the boxes of the elements `selector`
 * matches the same over two animation frames. Infinite animations (spinners, a caret) do not count.
 */
export async function settled(page: Page, selector = 'body', timeout = 10_000): Promise<void> {
  const end = Date.now() + timeout;
  for (;;) {
    const still = await page.evaluate(async (sel) => {
      await document.fonts.ready;
      const boxes = () => JSON.stringify([...document.querySelectorAll(sel)].slice(0, 2000).map((el) => el.getBoundingClientRect()));
      const moving = () =>
        document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity) ||
        [...document.querySelectorAll('[class*="-enter"], [class*="-exit"], [class*="-appear"]')].some((el) => [...el.classList].some((c) => /-(enter|exit|appear)(-active)?$/.test(c) && !c.startsWith('bp6-icon-')));
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      // Boxes first: measuring applies pending styles, so a transition an event just started is running by then.
      const before = boxes();
      if (moving()) {
        await Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined)));
        await frame();
        return false;
      }
      await frame();
      await frame();
      return !moving() && boxes() === before;
    }, selector);
    if (still) return;
    if (Date.now() > end) throw new Error(`the page did not come to rest within ${timeout} ms (${selector})`);
  }
}

/** Waits until every image under `selector` has finished loading or failed (its load or error event has been handled). */
export function imagesDone(page: Page, selector: string): Promise<unknown> {
  return page.waitForFunction((sel) => [...document.querySelectorAll<HTMLImageElement>(`${sel} img`)].every((img) => img.complete), selector);
}

/**
 * Waits until a dock arrangement is stored (the docks write theirs to localStorage a moment after each change): the
 * entry `key` (JSON; for /create's own dock, the `screen` class's arrangement in it) has `groups` groups and, given
 * `panels`, exactly those panel ids.
 */
export function layoutStored(page: Page, key: string, expected: { groups: number; panels?: string[]; screen?: 'wide' | 'narrow' }): Promise<unknown> {
  return page.waitForFunction(
    ({ key, expected }) => {
      type Node = { type: string; data: unknown };
      let layout: { grid?: { root: Node }; panels?: Record<string, unknown> } | undefined;
      try {
        const stored = JSON.parse(localStorage.getItem(key) ?? 'null');
        layout = expected.screen ? stored?.[expected.screen] : stored;
      } catch {
        return false;
      }
      if (!layout?.grid || !layout.panels) return false;
      const leaves = (node: Node): number => (node.type === 'leaf' ? 1 : (node.data as Node[]).reduce((n, child) => n + leaves(child), 0));
      const panels = Object.keys(layout.panels).sort();
      return leaves(layout.grid.root) === expected.groups && (!expected.panels || JSON.stringify(panels) === JSON.stringify([...expected.panels].sort()));
    },
    { key, expected },
  );
}

export async function newPage(
  browser: Browser,
  options: {
    viewport?: { width: number; height: number }; theme?: 'dark' | 'light'; timings?: PageTimings;
    /** A session token the app at `origin` finds in its storage, as after a login (set once, so a logout sticks). */
    session?: { origin: string; token: string };
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  // Reduced motion (the product honours it: src/shell/styles.css): no journey tests an animation, and software-drawn
  // spinners and transitions were a quarter of the browser's CPU time. The app follows the system's colour scheme
  // until the user picks: the journey's theme (dark unless asked) is the system's too.
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce', colorScheme: options.theme ?? 'dark',
    storageState: options.session
      ? { cookies: [], origins: [{ origin: options.session.origin, localStorage: [{ name: 'aisa.token', value: JSON.stringify(options.session.token) }] }] }
      : undefined,
  });
  if (options.theme) await context.addInitScript((t) => localStorage.setItem('aisa.theme', JSON.stringify(t)), options.theme);
  if (options.timings) {
    await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [CLIENT_TIMINGS_KEY, JSON.stringify(options.timings)] as const);
  }
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('[page error]', err.message));
  pollEvery100ms(page);
  return { context, page };
}

/** How often a page's waitForFunction checks its condition unless a call says otherwise. */
const WAIT_POLL_MS = 100;

/**
 * Playwright checks a waitForFunction condition on every animation frame by default, which makes the page draw 60
 * frames a second for as long as it waits: measured, 6% of a core per waiting page, against under 1% checking every
 * 100 ms. No journey needs a state caught within the same frame (`frames` and `settled` wait on frames themselves).
 */
function pollEvery100ms(page: Page): void {
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = ((fn: Parameters<Page['waitForFunction']>[0], arg?: unknown, options?: { polling?: number | 'raf'; timeout?: number }) =>
    waitForFunction(fn, arg, { polling: WAIT_POLL_MS, ...options })) as Page['waitForFunction'];
}

/** Blueprint toasts: the text of the latest one. */
export async function lastToast(page: Page): Promise<string> {
  const toast = page.locator('.bp6-toast').last();
  // A toast that follows a page load can come well after 10 s on a loaded machine (it then stays for its own timeout).
  await toast.waitFor({ state: 'visible', timeout: 30_000 });
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
