import { Button, Menu, MenuItem, Popover } from '@blueprintjs/core';
import { useStore, useValue } from '../../../core';
import type { HelperScreen } from '../helper-state';

/** My past conversations of this screen: reopen one, delete one, or start a new one. */
export function HistoryBar({ screen }: { screen: HelperScreen }) {
  const history = useStore(screen.history!);
  const cid = useValue(screen.cid$);
  const streaming = useValue(screen.streaming$);
  const lines = useValue(screen.lines$);
  const list = history.value ?? [];
  const menu = (
    <Menu className="helper-history" data-testid="helper-history-menu">
      {list.length === 0 && <MenuItem disabled text="还没有历史对话" />}
      {list.map((c) => (
        <MenuItem
          key={c.id}
          icon="chat"
          text={c.title}
          title={c.title}
          active={c.id === cid}
          disabled={streaming}
          onClick={() => void screen.reopen(c.id)}
          data-testid="helper-history-item"
          labelElement={
            <span className="helper-history-meta">
              <span>{c.update_time.slice(5, 16)}</span>
              <Button
                size="small"
                variant="minimal"
                icon="trash"
                aria-label="删除这条对话"
                onClick={(e) => {
                  e.stopPropagation();
                  void screen.remove(c.id);
                }}
                data-testid="helper-history-remove"
              />
            </span>
          }
        />
      ))}
    </Menu>
  );
  return (
    <div className="helper-history-bar">
      <Popover content={menu} placement="bottom-start">
        <Button icon="history" variant="outlined" text={list.length ? `历史对话（${list.length}）` : '历史对话'} data-testid="helper-history" />
      </Popover>
      <Button icon="plus" variant="minimal" text="新对话" disabled={streaming || (cid === null && lines.length === 0)} onClick={() => screen.startNew()} data-testid="helper-new" />
    </div>
  );
}
