import { describe, expect, it } from 'vitest';
import { DefaultPanelRegistry, DefaultRouteRegistry } from './registries';
import type { PanelContribution } from './tokens';

const Panel = () => null;

describe('RouteRegistry.isBuilt (the one source of every 即将上线 badge)', () => {
  const panels = new DefaultPanelRegistry([
    { route: '/works', component: Panel },
    { route: '/employee', component: Panel, comingSoon: true },
  ] satisfies PanelContribution[]);
  const routes = new DefaultRouteRegistry({ host: 'localhost', target: 'standard', isHelperHost: false }, panels);

  it('is true for a route with a real panel', () => {
    expect(routes.isBuilt('/works')).toBe(true);
    expect(routes.isBuilt('/works/')).toBe(true);
  });

  it('is false for a route without a panel, with a 即将上线 placeholder panel, or unknown', () => {
    expect(routes.isBuilt('/store/wsImage')).toBe(false);
    expect(routes.isBuilt('/employee')).toBe(false);
    expect(routes.isBuilt('/no/such')).toBe(false);
  });
});
