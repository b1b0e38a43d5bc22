import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute } from '../contract';
import { documentTitle, navIdFor, pageTitle } from './route-view';
import { planOpen } from './tab-policy';

describe('pageTitle and documentTitle', () => {
  it("titles a page from the routing table and the site's title", () => {
    expect(documentTitle(pageTitle('/create', {}, findRoute('/create')), '我的站点')).toBe('开始创作 - 我的站点');
    expect(documentTitle(pageTitle('/create', {}, findRoute('/create')), '')).toBe('开始创作 - AI超级分身');
  });

  it('says 页面不存在 for an unknown path and only the site when nothing is open', () => {
    expect(pageTitle('/no/such', {}, undefined)).toBe('页面不存在');
    expect(documentTitle(pageTitle('', {}, undefined), '我的站点')).toBe('我的站点');
  });

  it('names the agreement a protocol page shows', () => {
    expect(pageTitle('/protocol', { type: 'privacy' }, findRoute('/protocol'))).toBe('隐私条款');
    expect(pageTitle('/protocol', {}, findRoute('/protocol'))).toBe('用户协议');
  });
});

describe('navIdFor', () => {
  it("lights the route's own entry, else the entry it lies under, else none", () => {
    expect(navIdFor('/works', ROUTES)).toBe('works');
    expect(navIdFor('/store/wsImage', ROUTES)).toBe('store');
    expect(navIdFor('/explosiveAnalysis/video', ROUTES)).toBe('explosiveAnalysis');
    expect(navIdFor('/pet', ROUTES)).toBeUndefined();
    expect(navIdFor('/no/such', ROUTES)).toBeUndefined();
    expect(navIdFor('', ROUTES)).toBeUndefined();
  });
});

describe('planOpen (preview tabs)', () => {
  it('focuses a page that is already open, in any group', () => {
    expect(planOpen('/works', ['/home', '/works'], [{ id: '/home', preview: true }])).toEqual({ kind: 'focus', id: '/works' });
  });

  it("replaces the active group's preview tab, active or not", () => {
    expect(planOpen('/works', ['/home'], [{ id: '/home', preview: true }])).toEqual({ kind: 'replace', id: '/home' });
    expect(planOpen('/works', ['/home', '/create'], [{ id: '/home', preview: true }, { id: '/create', preview: false }])).toEqual({ kind: 'replace', id: '/home' });
  });

  it('adds a tab when every tab of the group is kept, or the group is empty', () => {
    expect(planOpen('/works', ['/home'], [{ id: '/home', preview: false }])).toEqual({ kind: 'add' });
    expect(planOpen('/works', [], [])).toEqual({ kind: 'add' });
  });
});

describe('icons (issue 33)', () => {
  it('names only icons Blueprint has, for every route (nav, tabs, palette)', async () => {
    const { Icons } = await import('@blueprintjs/icons');
    const unknown = ROUTES.filter((r) => !Icons.isValidIconName(r.icon)).map((r) => `${r.path}: ${r.icon}`);
    expect(unknown).toEqual([]);
  });
});
