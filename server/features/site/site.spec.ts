import { describe, expect, it } from 'vitest';
import { API, FALLBACK_SITE_TITLE, OPERATOR_SETTINGS, PROTOCOL_TITLES, PROTOCOL_TYPES, SITE_FIELDS, type ProtocolType } from '../../../src/contract';
import { DB_KINDS, useApp } from '../../../tests/support/app';

describe.each(DB_KINDS)('site info, agreements and health (%s)', (kind) => {
  const t = useApp(kind);
  const site = async () => (await t.client().call(API.site.site, {})).data as Record<string, unknown>;

  it('answers every site field of the spec on a fresh install, with finished-looking defaults and no operator setting', async () => {
    const info = await site();
    expect(Object.keys(info).sort()).toEqual([...SITE_FIELDS, 'guest_enabled'].sort());
    for (const f of SITE_FIELDS) expect(typeof info[f]).toBe('string');
    expect(info).toMatchObject({ site_title: FALLBACK_SITE_TITLE, title: FALLBACK_SITE_TITLE, login_title: FALLBACK_SITE_TITLE, guest_enabled: 0 });
    expect(info.seo_desc).toMatch(/[\u4e00-\u9fff]/);
    expect(info.copyright).toContain(String(new Date().getFullYear()));
  });

  it('shows an operator\'s change at once and keeps operator settings (the chat key) out of site info', async () => {
    await t.operator(API.admin.siteSet, { settings: { site_title: '我的分身站', chat_api_key: 'sk-secret-key', guest_credits: '20' } });
    const info = await site();
    expect(info).toMatchObject({ site_title: '我的分身站', guest_enabled: 1 });
    for (const key of OPERATOR_SETTINGS) expect(info).not.toHaveProperty(key);
    expect(JSON.stringify(info)).not.toContain('sk-secret-key');
  });

  it('answers each agreement type with its title and the text the operator set', async () => {
    const types = Object.keys(PROTOCOL_TYPES) as ProtocolType[];
    await t.operator(API.admin.siteSet, { settings: Object.fromEntries(types.map((type) => [PROTOCOL_TYPES[type], `<p>${type} 正文</p>`])) });
    for (const type of types) {
      expect((await t.client().call(API.site.protocol, { type })).data).toEqual({ title: PROTOCOL_TITLES[type], content: `<p>${type} 正文</p>` });
    }
  });

  it('refuses an unknown agreement type with a Chinese message', async () => {
    for (const params of [{ type: 'nope' }, {}]) {
      const reply = await t.client().call(API.site.protocol, params);
      expect(reply.code).toBe(1);
      expect(reply.status).toBeLessThan(500);
      expect(reply.msg).toBe('协议类型取值有误');
    }
  });

  it('reports health with the process role and the database it reached', async () => {
    const res = await fetch(`${t.url}${API.site.health.path}`);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ status: 'ok', role: 'all', database: kind });
  });
});
