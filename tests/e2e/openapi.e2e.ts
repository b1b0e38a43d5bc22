/**
 * 账号 → API 密钥 against the real server: reached from the account menu, a key is created and shown once (it works
 * on /open/v1 at once), its callback URL saved, then revoked (the same key answers 401); the palette opens the page.
 * The reference page /open/docs renders the document. With SHOTS_DIR set, the page with keys and the created-key dialog in both themes, at desktop and phone width.
 */
import { describe, expect, it } from 'vitest';
import { API, MSG, OPEN_BASE } from '../../src/contract';
import { LOOKS, PHONE_VIEWPORT, horizontalOverflow, screenshots } from '../support/browser';
import { hashPath, okCall, runCommand, toast, useJourney } from '../support/journey';

const USER = '13800003401';
const LOOKER = '13800003402';
const shoot = screenshots('openapi');

describe('API keys', () => {
  const j = useJourney({ users: [USER, LOOKER], credits: 100 });
  const me = (key: string) => fetch(`${j.server.url}${OPEN_BASE}/me`, { headers: { authorization: `Bearer ${key}` } });

  it('creates a key from the account menu, shows it once, saves its callback URL and revokes it', { timeout: 120_000 }, async () => {
    const { page, context } = await j.loggedInPage(USER, '/home');
    await page.click('[data-testid=account-button]');
    await page.click('[data-testid=account-api-keys]');
    await page.waitForSelector('[data-testid=ak-empty]');
    expect(hashPath(page)).toBe('/apiKeys');

    await page.fill('[data-testid=ak-name] input, input[data-testid=ak-name]', '商城后台');
    await page.click('[data-testid=ak-create]');
    const key = (await page.textContent('[data-testid=ak-created-key]'))!;
    expect(key).toMatch(/^aisa_/);
    expect(await page.textContent('[data-testid=ak-created-secret]')).toMatch(/^whsec_/);
    expect((await me(key)).status).toBe(200);
    await page.click('[data-testid=ak-created-close]');
    await page.waitForSelector('[data-testid=ak-created-key]', { state: 'detached' });
    // Shown once: the page keeps only its first characters.
    expect(await page.textContent('[data-testid=ak-prefix]')).toBe(`${key.slice(0, 11)}…`);
    expect(await page.evaluate((k) => document.body.innerText.includes(k), key)).toBe(false);

    await page.click('[data-testid=ak-webhook]');
    await page.fill('[data-testid=ak-webhook-url] input, input[data-testid=ak-webhook-url]', 'http://example.com/hook');
    await page.click('[data-testid=ak-webhook-save]');
    await toast(page, MSG.webhookUrlInvalid);
    await page.fill('[data-testid=ak-webhook-url] input, input[data-testid=ak-webhook-url]', 'https://hooks.example.com/aisa');
    await page.click('[data-testid=ak-webhook-save]');
    await toast(page, MSG.webhookSaved);
    await page.click('[data-testid=ak-webhook-close]');
    await page.waitForSelector('text=回调已开启');

    await page.click('[data-testid=ak-revoke]');
    await page.click('.ak-alert .bp6-button.bp6-intent-danger');
    await toast(page, MSG.apiKeyRevoked);
    await page.waitForSelector('[data-testid=ak-empty]');
    expect((await me(key)).status).toBe(401);

    await page.goto(`${j.server.url}/#/home`);
    await runCommand(page, 'API 密钥', 'openapi.keys');
    await page.waitForSelector('.dock-panel[data-route="/apiKeys"] [data-testid=ak-panel]');

    // The reference page renders the generated document with the viewer from our own assets.
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${j.server.url}/open/docs`);
    // One block per operation the document describes.
    const described = (await (await fetch(`${j.server.url}${OPEN_BASE}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const methods = ['get', 'post', 'put', 'patch', 'delete'];
    const operations = Object.values(described.paths).reduce((n, item) => n + Object.keys(item).filter((k) => methods.includes(k)).length, 0);
    expect(operations).toBeGreaterThanOrEqual(12);
    await page.waitForFunction((n) => document.querySelectorAll('.swagger-ui .opblock').length === n, operations, { timeout: 30_000 });
    expect(await page.textContent('.swagger-ui .title')).toContain('AI超级分身 开放接口');
    expect(failed).toEqual([]);
    await shoot(page, 'docs-light-desktop');
    await context.close();
  });

  it('fits a phone and both themes', { timeout: 180_000 }, async () => {
    const client = await j.apiClient(LOOKER);
    for (const name of ['商城后台', '剪辑工作站']) await okCall(client, API.openapi.keyCreate, { name });
    const [first] = (await okCall<{ list: { id: number }[] }>(client, API.openapi.keyList, {})).list;
    await okCall(client, API.openapi.webhookSet, { id: first!.id, url: 'https://hooks.example.com/aisa' });
    for (const { theme, phone } of LOOKS) {
      const { page, context } = await j.loggedInPage(LOOKER, '/apiKeys', { theme, viewport: phone ? PHONE_VIEWPORT : undefined });
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=ak-card]').length === 2);
      await page.waitForFunction(() => [...document.querySelectorAll('.ak-panel .bp6-icon, .top-bar .bp6-icon')].every((el) => el.querySelector('svg')));
      if (phone) expect(await horizontalOverflow(page, '.ak-panel', '.ak-panel *')).toEqual([]);
      await shoot(page, `keys-${theme}-${phone ? 'phone' : 'desktop'}`);
      await page.fill('[data-testid=ak-name] input, input[data-testid=ak-name]', '测试环境');
      await page.click('[data-testid=ak-create]');
      await page.waitForSelector('[data-testid=ak-created-key]');
      await shoot(page, `created-${theme}-${phone ? 'phone' : 'desktop'}`);
      await page.click('[data-testid=ak-created-close]');
      await page.click('[data-testid=ak-card] >> nth=0 >> [data-testid=ak-revoke]');
      await page.click('.ak-alert .bp6-button.bp6-intent-danger');
      await toast(page, MSG.apiKeyRevoked);
      await context.close();
    }
  });
});
