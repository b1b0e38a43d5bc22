import { useEffect, useState } from 'react';
import { Drawer, Position } from '@blueprintjs/core';
import { TOKENS, useContainer, useService, type AuthService, type CommandRegistry, type DialogContribution } from '../core';
import { ContributedParts } from './ContributedParts';
import { DockArea } from './DockArea';
import { LeftNav } from './LeftNav';
import { Palette } from './Palette';
import { TopBar } from './TopBar';

/** The logged-in frame: left nav, top bar, dock; key bindings live while it is mounted. */
export default function Workbench() {
  const container = useContainer();
  const registry = useService<CommandRegistry>(TOKENS.CommandRegistry);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const dialogs = container.getAll<DialogContribution>(TOKENS.DialogContribution, { optional: true });
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => registry.bindKeys(window), [registry]);
  useEffect(() => {
    void auth.refreshProfile().catch(() => undefined);
  }, [auth]);

  return (
    <Palette>
      <div className="workbench">
        <aside className="workbench-nav">
          <LeftNav />
        </aside>
        <Drawer isOpen={menuOpen} onClose={() => setMenuOpen(false)} position={Position.LEFT} size="72%" className="nav-drawer" title="导航">
          <LeftNav onNavigate={() => setMenuOpen(false)} />
        </Drawer>
        <TopBar onMenu={() => setMenuOpen(true)} />
        <main className="workbench-main">
          <DockArea />
        </main>
      </div>
      <ContributedParts parts={dialogs} />
    </Palette>
  );
}
