/** What every browser journey does around its screens: operator calls, API logins, logging in a page, toasts. */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { API, OPERATOR_KEY_HEADER, type CallDef } from '../../src/contract';
import { ApiTestClient } from './app';
import { newPage } from './browser';
import type { RunningServer } from './server';

/** An operator call with the data directory's key (what `npm run admin` sends); throws on code ≠ 0. */
export async function operatorCall<T = { id: number }>(server: RunningServer, call: CallDef, body: Record<string, unknown>): Promise<T> {
  const key = fs.readFileSync(path.join(server.dataDir, 'operator.key'), 'utf8').trim();
  const res = await fetch(`${server.url}${call.path}`, { method: call.method, headers: { 'content-type': 'application/json', [OPERATOR_KEY_HEADER]: key }, body: JSON.stringify(body) });
  const reply = (await res.json()) as { code: number; msg: string; data: T };
  if (reply.code !== 0) throw new Error(`${call.id}: ${reply.msg}`);
  return reply.data;
}

/** A logged-in API client, for arranging what a journey starts from. */
export async function apiLogin(server: RunningServer, username: string, password: string): Promise<ApiTestClient> {
  const reply = await new ApiTestClient(server.url).call(API.account.login, { username, password });
  if (reply.code !== 0) throw new Error(`login: ${reply.msg}`);
  return new ApiTestClient(server.url, reply.data.token);
}

/** A call that must succeed; answers its data. */
export async function okCall<T = any>(client: ApiTestClient, call: CallDef, params: Record<string, unknown>): Promise<T> {
  const reply = await client.call(call, params);
  if (reply.code !== 0) throw new Error(`${call.id}: ${reply.msg}`);
  return reply.data as T;
}

/** Fills the login form a page shows (ticking the agreement) and submits it. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  await page.waitForSelector('[data-testid=login-submit]');
  await page.fill('#login-username', username);
  await page.fill('#login-password', password);
  await page.click('.login-agreement .bp6-control-indicator');
  await page.click('[data-testid=login-submit]');
}

/** A new page that opens `route`, logs in there and waits for the route's panel. */
export async function loggedInPage(browser: Browser, server: RunningServer, username: string, password: string, route: string, options: Parameters<typeof newPage>[1] = {}) {
  const { page, context } = await newPage(browser, options);
  await page.goto(`${server.url}/#${route}`);
  await submitLogin(page, username, password);
  await page.waitForSelector(`.dock-panel[data-route="${route.split('?')[0]}"]`);
  return { page, context };
}

/** Waits for a toast with exactly this text among those shown. */
export const toast = (page: Page, text: string) =>
  page.waitForFunction((t) => [...document.querySelectorAll('.bp6-toast')].some((el) => (el.textContent ?? '').trim() === t), text, { timeout: 15_000 });

/** The route and query the hash router shows. */
export const hashPath = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));

/** The <audio> under `selector` really plays a stored file: a known duration, not paused, time moving. */
export async function audioPlays(page: Page, selector: string) {
  await page.waitForFunction(
    (sel) => {
      const a = document.querySelector<HTMLAudioElement>(sel);
      return !!a && a.currentSrc.includes('/storage/') && a.duration > 0 && !a.paused && a.currentTime > 0;
    },
    selector,
    { timeout: 20_000 },
  );
}
