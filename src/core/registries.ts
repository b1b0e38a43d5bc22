import { inject, injectable, multiInject, optional } from 'inversify';
import { ROUTES, findRoute, normalizePath, type RouteDef } from '../contract';
import { TOKENS, type HostInfo, type PanelContribution, type PanelRegistry, type RouteRegistry } from './tokens';

@injectable()
export class DefaultPanelRegistry implements PanelRegistry {
  private readonly panels = new Map<string, PanelContribution>();

  constructor(@multiInject(TOKENS.PanelContribution) @optional() contributions: PanelContribution[] = []) {
    for (const panel of contributions ?? []) {
      const route = normalizePath(panel.route);
      if (!findRoute(route)) throw new Error(`panel for unknown route "${panel.route}"`);
      if (this.panels.has(route)) throw new Error(`duplicate panel for route "${route}"`);
      this.panels.set(route, { ...panel, route });
    }
  }

  get(route: string) {
    return this.panels.get(normalizePath(route));
  }
  all() {
    return [...this.panels.values()];
  }
}

/** The spec's routing table, narrowed to what this host shows (helper hosts vs the rest). */
@injectable()
export class DefaultRouteRegistry implements RouteRegistry {
  private readonly routes: readonly RouteDef[];

  constructor(
    @inject(TOKENS.HostInfo) host: HostInfo,
    @inject(TOKENS.PanelRegistry) private readonly panels: PanelRegistry,
  ) {
    this.routes = ROUTES.filter((r) => !r.hostRule || (r.hostRule === 'helper') === host.isHelperHost);
  }

  all() {
    return this.routes;
  }
  find(path: string) {
    const p = normalizePath(path);
    return this.routes.find((r) => r.path === p);
  }
  isBuilt(path: string) {
    const panel = this.panels.get(path);
    return Boolean(panel && !panel.comingSoon && this.find(path));
  }
}
