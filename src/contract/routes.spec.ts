import { describe, expect, it } from 'vitest';
import { ROUTES, findRoute, normalizePath, NAV_SECTIONS } from './index';

/** Every route of both documents' routing tables. */
const SPEC_ROUTES = [
  '/home', '/create', '/profile', '/gProfile', '/clone', '/multiples', '/explosiveAnalysis', '/employee', '/helper/index', '/cozeVideo',
  '/works', '/material/index', '/consum', '/use', '/store', '/moreCredits', '/login', '/protocol', '/establishPet', '/pet',
  '/pet/establish', '/voice', '/store/extraction', '/store/audioExtraction', '/store/sea', '/store/imageSpeak', '/store/characters',
  '/store/wsImage', '/store/wsVideo', '/store/tsVideo', '/store/aiChat', '/explosiveAnalysis/video', '/explosiveAnalysis/user',
  '/explosiveAnalysis/character', '/explosiveAnalysis/project', '/employee/talking', '/helper/operation', '/helper/asyncOperation',
  '/copywrite/index', 'store/copywrite/trace', 'store/music/index', '/cozeVideo/editVideo', '/cozeVideo/history', '/store/dubbing/index',
];

describe('routing table', () => {
  it.each(SPEC_ROUTES)('has %s', (path) => {
    expect(findRoute(path)).toBeDefined();
  });

  it('has unique paths and unique nav ids in known sections', () => {
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
    const navIds = ROUTES.filter((r) => r.nav).map((r) => r.nav!.id);
    expect(new Set(navIds).size).toBe(navIds.length);
    for (const r of ROUTES) if (r.nav) expect(NAV_SECTIONS.map((s) => s.id)).toContain(r.nav.section);
  });

  it('normalizes paths', () => {
    expect(normalizePath('store/music/index/')).toBe('/store/music/index');
    expect(normalizePath('/')).toBe('/');
  });

  it('keeps login and protocol outside the layout', () => {
    expect(findRoute('/login')?.standalone).toBe(true);
    expect(findRoute('/protocol')?.standalone).toBe(true);
    expect(findRoute('/home')?.standalone).toBeUndefined();
  });
});
