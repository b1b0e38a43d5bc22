import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Disposable, type Locator, type Page } from 'playwright-core';
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

/**
 * Closes the open dialog with Escape, as a user does once it has appeared, and waits until it has closed. Blueprint
 * moves the focus into a dialog on the next animation frame, and only a dialog holding the focus hears Escape: on a
 * busy machine that frame can come after the key, or a dialog closed just before can hand its focus back to the page
 * after the new one took it (the media journey's preview stayed open so, twice). So the key waits for the focus, and
 * is pressed again, as a user would, while the dialog it was meant for is still open.
 */
export async function escapeDialog(page: Page): Promise<void> {
  await doneAsAUserWould(
    'the dialog stayed open after Escape three times',
    async () => {
      // The overlay holding the focus is marked as the one this key is for (and only that one: a mark stays on a closed
      // dialog's overlay, which Blueprint keeps for its next opening).
      await page.waitForFunction(() => {
        document.querySelectorAll('[data-escape-target]').forEach((el) => el.removeAttribute('data-escape-target'));
        const overlay = document.activeElement?.closest('.bp6-overlay-open');
        overlay?.setAttribute('data-escape-target', '');
        return !!overlay;
      });
      await page.keyboard.press('Escape');
    },
    () => page.waitForFunction(() => !document.querySelector('.bp6-overlay-open[data-escape-target]'), undefined, { timeout: 5_000 }),
  );
}

/**
 * Ticks the Blueprint checkbox `control` (a selector of its label) by its box, as a user does, and waits until it is
 * ticked. Content still loading above it (an agreement's text) can move the box between playwright's aim and the
 * click, which then lands beside it (the voices journey's notice stayed unticked so once), so a lost click is made
 * again, as a user would.
 */
export async function tick(page: Page, control: string): Promise<void> {
  await doneAsAUserWould(
    `${control} stayed unticked after three clicks`,
    () => page.click(`${control} .bp6-control-indicator`),
    () => page.waitForSelector(`${control} input:checked`, { timeout: 5_000 }),
  );
}

/** Acts, then waits for what the act should bring about; if that does not come, acts again, three times at most. */
async function doneAsAUserWould(failure: string, act: () => Promise<unknown>, outcome: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await act();
    if (await outcome().then(() => true, () => false)) return;
    if (attempt === 3) throw new Error(failure);
  }
}

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

/**
 * One tab a journey's tests take turns in. A page opened in a fresh browser context starts a fresh renderer, which
 * parses and compiles the whole app again: measured, about twice the CPU of the same page opened again in a tab whose
 * renderer and HTTP cache (the compiled code rides in it) have seen the app before. So a page handed back is made
 * blank, its storage, cookies, permissions, listeners, routes and init scripts are cleared, and the next test gets it:
 * the same clean slate as a new context, but for the cache of the app's own files.
 */
interface Tab {
  context: BrowserContext;
  page: Page;
  /** The origins the tab has shown since it was handed out: their storage is cleared when it comes back. */
  origins: Set<string>;
  /** Init scripts registered while handed out (the page's own and a test's), removed when it comes back. */
  scripts: Disposable[];
  /** What a test holds: the context, but `close` hands the tab back and `addInitScript` is undone then. */
  lent: BrowserContext;
  /**
   * Whether the tab goes back for another test: not a fresh-cache tab (its cache is no longer fresh), nor one a test
   * drove through its own DevTools session (network throttling and other emulation stay while that session does).
   */
  reusable: boolean;
  /** A DevTools session on the page for clearing the tab (the context's own method, which a test's call no longer reaches). */
  devtools: () => Promise<CDPSession>;
}

/** A browser's tabs: those waiting for a test, and those a test holds. */
const tabsByBrowser = new WeakMap<Browser, { idle: Tab[]; lent: Set<Tab> }>();
function tabsOf(browser: Browser): { idle: Tab[]; lent: Set<Tab> } {
  let tabs = tabsByBrowser.get(browser);
  if (!tabs) tabsByBrowser.set(browser, (tabs = { idle: [], lent: new Set() }));
  return tabs;
}

/** The page a tab shows before it is handed out again. */
const BLANK = 'about:blank';

/** Which turn of a tab a site's storage belongs to (newPage clears it on a new turn's first page there). */
const TURN_KEY = 'aisa.test.turn';
let turns = 0;

async function openTab(browser: Browser, reusable: boolean): Promise<Tab> {
  // Reduced motion (the product honours it: src/shell/styles.css): no journey tests an animation, and software-drawn
  // spinners and transitions were a quarter of the browser's CPU time.
  const context = await browser.newContext({ viewport: DESKTOP_VIEWPORT, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', reducedMotion: 'reduce', colorScheme: 'dark' });
  const page = await context.newPage();
  pollEvery100ms(page);
  const newSession = context.newCDPSession.bind(context);
  const tab = { context, page, origins: new Set<string>(), scripts: [], reusable, devtools: () => newSession(page) } as unknown as Tab;
  context.newCDPSession = (target) => {
    tab.reusable = false;
    return newSession(target);
  };
  tab.lent = new Proxy(context, {
    get(target, key, receiver) {
      if (key === 'close') return () => returnTab(browser, tab);
      if (key === 'addInitScript') {
        return async (...args: Parameters<BrowserContext['addInitScript']>) => {
          const script = await target.addInitScript(...args);
          tab.scripts.push(script);
          return script;
        };
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return tab;
}

/**
 * Makes a tab a clean slate and puts it back for the next test; a tab that cannot be (its page closed, a second page
 * opened beside it, a page that will not leave) is closed instead.
 */
async function returnTab(browser: Browser, tab: Tab): Promise<void> {
  const { idle, lent } = tabsOf(browser);
  if (!lent.delete(tab)) return;
  try {
    if (!tab.reusable || tab.page.isClosed() || tab.context.pages().length !== 1) throw new Error('not reusable');
    tab.page.removeAllListeners();
    await tab.page.unrouteAll({ behavior: 'ignoreErrors' });
    await tab.context.unrouteAll({ behavior: 'ignoreErrors' });
    for (const script of tab.scripts.splice(0)) await script.dispose();
    await tab.page.goto(BLANK, { timeout: 10_000 });
    const cdp = await tab.devtools();
    // Local and session storage are the next turn's first page's to clear (newPage): a clear from here reaches the
    // renderer's copy late, and could wipe what that page has just set.
    for (const origin of tab.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb,cache_storage,service_workers,file_systems' });
    await cdp.detach();
    tab.origins.clear();
    await tab.context.clearCookies();
    await tab.context.clearPermissions();
    idle.push(tab);
  } catch {
    await tab.context.close().catch(() => undefined);
  }
}

/**
 * What the pages a test holds show, for its failure report: each page's address, the title and first lines of any
 * open dialog, and the toasts (CI keeps no screenshots, and a selector's timeout alone does not say what was there).
 */
export async function describeLentTabs(browser: Browser | undefined): Promise<string> {
  if (!browser) return '';
  const lines: string[] = [];
  for (const tab of tabsOf(browser).lent) {
    if (tab.page.isClosed()) continue;
    const seen = await tab.page
      .evaluate(() => {
        const text = (el: Element) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim().slice(0, 400);
        const overlays = [...document.querySelectorAll('.bp6-overlay-open .bp6-dialog, .bp6-overlay-open .bp6-drawer')].map((d) => `dialog: ${text(d)}`);
        const toasts = [...document.querySelectorAll('.bp6-toast')].map((t) => `toast: ${text(t)}`);
        return [...overlays, ...toasts];
      })
      .catch((err: Error) => [`(not readable: ${err.message.split('\n')[0]})`]);
    lines.push(`page ${tab.page.url()}`, ...seen.map((s) => `  ${s}`));
  }
  return lines.join('\n');
}

/** Hands back every tab the browser still lends out (a journey calls this after each test, so a page a test left open is reused too). */
export async function returnTabs(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  for (const tab of [...tabsOf(browser).lent]) await returnTab(browser, tab);
}

export async function newPage(
  browser: Browser,
  options: {
    viewport?: { width: number; height: number }; theme?: 'dark' | 'light'; timings?: PageTimings;
    /** A session token the app at `origin` finds in its storage, as after a login (set once, so a logout sticks). */
    session?: { origin: string; token: string };
    /** A tab that has fetched nothing yet (a test of what the app does when its files cannot be fetched); closed after the test. */
    freshCache?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { idle, lent } = tabsOf(browser);
  const tab = (!options.freshCache && idle.pop()) || (await openTab(browser, !options.freshCache));
  lent.add(tab);
  const { context, page } = tab;
  page.on('pageerror', (err) => console.error('[page error]', err.message));
  page.on('framenavigated', (frame) => {
    const { origin } = new URL(frame.url());
    if (origin !== 'null') tab.origins.add(origin);
  });
  await page.setViewportSize(options.viewport ?? DESKTOP_VIEWPORT);
  // The app follows the system's colour scheme until the user picks: the journey's theme (dark unless asked) is the system's too.
  await page.emulateMedia({ colorScheme: options.theme ?? 'dark', reducedMotion: 'reduce' });
  // The first page of this turn on any site starts from empty storage, as in a new context, and finds the session
  // token on its site; later pages of the turn keep what the app wrote (so a logout sticks across reloads). Done in the
  // page itself, before the app's scripts: the renderer keeps a site's storage in memory, and a clear from outside
  // (returnTab's) can reach it after the next page has already read it.
  // A number, so the value reads as JSON like the app's own entries (a journey parses every entry).
  const turn = String(++turns);
  tab.scripts.push(
    await context.addInitScript(
      ([turnKey, turn, session]) => {
        if (location.origin === 'null' || localStorage.getItem(turnKey) === turn) return;
        localStorage.clear();
        sessionStorage.clear();
        localStorage.setItem(turnKey, turn);
        if (session && location.origin === session.origin) localStorage.setItem('aisa.token', JSON.stringify(session.token));
      },
      [TURN_KEY, turn, options.session ?? null] as const,
    ),
  );
  // Every page of the turn: the theme and the shortened client timers, as the journey asked.
  if (options.theme) tab.scripts.push(await context.addInitScript((t) => localStorage.setItem('aisa.theme', JSON.stringify(t)), options.theme));
  if (options.timings) {
    tab.scripts.push(await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [CLIENT_TIMINGS_KEY, JSON.stringify(options.timings)] as const));
  }
  return { context: tab.lent, page };
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
