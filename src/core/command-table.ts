import { inject, injectable, type Newable } from 'inversify';
import { TOKENS, type Command, type Navigation } from './tokens';
import type { CommandContribution } from './plugin';

/** One palette command as a table row: id, title, icon, keywords, what it does and, optionally, its keys. */
export type CommandRow = readonly [
  id: string,
  title: string,
  icon: string,
  keywords: string,
  run: () => void | Promise<void>,
  keys?: string[],
];

/** A palette section from its table, so plugins list rows instead of writing the command object out each time. */
export function commandTable(section: string, rows: readonly CommandRow[]): Command[] {
  return rows.map(([id, title, icon, keywords, run, keys]) => ({ id, title, section, icon, keywords, run, ...(keys ? { keys } : {}) }));
}

/** The common command class: a list made from the navigation and the plugin's state (bound under its token). */
export function navigationCommands<State>(
  stateToken: symbol,
  list: (navigation: Navigation, state: State) => Command[],
): Newable<CommandContribution> {
  @injectable()
  class NavigationCommands implements CommandContribution {
    constructor(
      @inject(TOKENS.Navigation) private readonly navigation: Navigation,
      @inject(stateToken) private readonly state: State,
    ) {}

    commands(): Command[] {
      return list(this.navigation, this.state);
    }
  }
  return NavigationCommands;
}

/** A command that acts on a page: open `route` unless it is already shown, then act. */
export function onPage<R>(navigation: Navigation, route: string, act: () => R): () => R {
  return () => {
    if (navigation.current.path !== route) navigation.navigate(route);
    return act();
  };
}

/** A list page's refresh command: open the page unless it is already shown, then reload its list. */
export function refreshOn(navigation: Navigation, route: string, refresh: () => void): () => void {
  return onPage(navigation, route, refresh);
}
