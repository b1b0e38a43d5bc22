import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Icon } from '@blueprintjs/core';
import { KBarAnimator, KBarPortal, KBarPositioner, KBarProvider, KBarResults, KBarSearch, useKBar, VisualState, useMatches, useRegisterActions, type Action } from 'kbar';
import { MSG } from '../contract';
import { TOKENS, useObservable, useService, type Command, type CommandRegistry, type RouteRegistry } from '../core';
import { KeyHint } from './keys';
import { NAV_COMMAND } from './shell-commands';

type PinyinOf = (text: string) => string;

/**
 * The pinyin keys maker, loaded when the palette first opens: its dictionary is 290 KB whose set-up took a sixth of
 * the CPU of every page load. Keys typed before it arrives are matched again once it has (the actions change).
 */
function usePinyin(wanted: boolean): PinyinOf | null {
  const [fn, setFn] = useState<PinyinOf | null>(null);
  useEffect(() => {
    if (!wanted || fn) return;
    let live = true;
    void import('./pinyin-keywords').then((m) => live && setFn(() => m.pinyinKeywords));
    return () => {
      live = false;
    };
  }, [wanted, fn]);
  return fn;
}

/**
 * kbar is a view of the CommandRegistry: actions mirror its commands; bindings stay with the registry.
 * Each action's keywords add the pinyin of its title and keywords (full and initials), so zuopin finds 我的作品.
 */
function RegistryActions() {
  const registry = useService<CommandRegistry>(TOKENS.CommandRegistry);
  const commands = useObservable(registry.commands$, registry.list());
  // Every move of the palette (opening, closing, opening again mid-close) and every keystroke in its search asks each
  // `when` again: a page's state may have changed since focus last moved, e.g. through the command just run.
  const { query, visualState, searchQuery } = useKBar((state) => ({ visualState: state.visualState, searchQuery: state.searchQuery }));
  const pinyinOf = usePinyin(visualState !== VisualState.hidden);
  const actions = useMemo<Action[]>(
    () =>
      commands
        .filter((c) => c.id !== 'workbench.palette' && (!c.when || c.when()))
        .map((c) => ({
          id: c.id,
          name: c.title,
          section: c.section,
          keywords: [c.keywords, pinyinOf?.(`${c.title} ${c.keywords ?? ''}`)].filter(Boolean).join(','),
          perform: () => void registry.run(c.id),
        })),
    // `visualState` and `searchQuery` are not inputs of the list, but the moments to evaluate it again.
    [commands, registry, pinyinOf, visualState, searchQuery],
  );
  useRegisterActions(actions, [actions]);

  useEffect(
    () =>
      registry.register({
        id: 'workbench.palette',
        title: '打开命令面板',
        section: '通用',
        keys: ['$mod+k'],
        run: () => query.toggle(),
      }),
    [registry, query],
  );
  return null;
}

function Results() {
  const registry = useService<CommandRegistry>(TOKENS.CommandRegistry);
  const routes = useService<RouteRegistry>(TOKENS.RouteRegistry);
  const byId = useMemo(() => new Map<string, Command>(registry.list().map((c) => [c.id, c])), [registry]);
  const { results } = useMatches();
  return (
    <KBarResults
      items={results}
      onRender={({ item, active }) => {
        if (typeof item === 'string') return <div className="palette-section">{item}</div>;
        const command = byId.get(item.id) ?? registry.list().find((c) => c.id === item.id);
        return (
          <div className={`palette-item${active ? ' active' : ''}`} data-command={item.id}>
            <Icon icon={(command?.icon as never) ?? 'chevron-right'} size={14} />
            <span className="palette-title">{item.name}</span>
            {item.id.startsWith(NAV_COMMAND) && !routes.isBuilt(item.id.slice(NAV_COMMAND.length)) && <span className="soon-badge">{MSG.comingSoonPanel}</span>}
            {command?.keys?.[0] && <KeyHint binding={command.keys[0]} />}
          </div>
        );
      }}
    />
  );
}

export function Palette({ children }: { children: ReactNode }) {
  return (
    // kbar's own toggle is moved off Ctrl+K: the registry owns that binding.
    <KBarProvider options={{ toggleShortcut: 'F19', disableScrollbarManagement: true }}>
      <RegistryActions />
      <KBarPortal>
        <KBarPositioner className="palette-backdrop">
          <KBarAnimator className="palette" aria-label="命令面板">
            <KBarSearch className="palette-search" defaultPlaceholder="输入页面或命令，例如：作品、主题、退出…" />
            <Results />
          </KBarAnimator>
        </KBarPositioner>
      </KBarPortal>
      {children}
    </KBarProvider>
  );
}
