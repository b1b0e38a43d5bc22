/** The script editor's toolbar: the insert-pause menu (where the channel takes pauses), polish, emotion marks, AI writing. */
import { Button, Icon, Menu, MenuDivider, MenuItem, Popover, Tooltip } from '@blueprintjs/core';
import { PAUSE_CHOICES } from './markers';

export type Busy = null | 'polish' | 'emotion';

export interface ScriptToolbarProps {
  pauses: boolean;
  pauseMenu: boolean;
  onPauseMenu: (open: boolean) => void;
  onInsertPause: (seconds: number) => void;
  busy: Busy;
  onPolish: (emotion: boolean) => void;
  onAiWriting: () => void;
  /** Why the AI tools are off (no chat engine, or it just failed), else null. */
  aiUnavailable: string | null;
}

export function ScriptToolbar({ pauses, pauseMenu, onPauseMenu, onInsertPause, busy, onPolish, onAiWriting, aiUnavailable }: ScriptToolbarProps) {
  const aiTitle = aiUnavailable ?? undefined;
  const pauseItems = (
    <Menu className="se-pause-menu" data-testid="pause-menu">
      <MenuDivider title="插入停顿" />
      {PAUSE_CHOICES.map((c) => (
        <MenuItem key={c.seconds} icon="stopwatch" text={c.label} label={c.marker} onClick={() => onInsertPause(c.seconds)} data-testid={`pause-${c.seconds}`} />
      ))}
    </Menu>
  );
  return (
    <>
      <div className="se-toolbar" role="toolbar" aria-label="台词工具">
        {pauses && (
          <Popover
            content={pauseItems}
            isOpen={pauseMenu}
            onInteraction={(next) => onPauseMenu(next)}
            placement="bottom-start"
            autoFocus={false}
            enforceFocus={false}
            minimal
          >
            <Button
              variant="minimal"
              icon="stopwatch"
              endIcon="caret-down"
              // Keeps the editor's cursor where it is while the menu opens.
              onMouseDown={(e) => e.preventDefault()}
              data-testid="pause-open"
            >
              <Label long="插入停顿" short="停顿" />
            </Button>
          </Popover>
        )}
        <AiButton icon="clean" long="文本润色" short="润色" busy={busy === 'polish'} disabled={busy !== null} unavailable={aiTitle} onClick={() => onPolish(false)} testId="polish" />
        <AiButton icon="emoji" long="情绪标记" short="情绪" busy={busy === 'emotion'} disabled={busy !== null} unavailable={aiTitle} onClick={() => onPolish(true)} testId="polish-emotion" />
        <AiButton icon="lightbulb" long="AI 写作" short="AI写作" busy={false} disabled={false} unavailable={aiTitle} onClick={onAiWriting} testId="ai-writing" />
      </div>
      {aiUnavailable && (
        <div className="se-notice" role="status" data-testid="ai-unavailable">
          <Icon icon="info-sign" size={12} />
          <span>文本润色和 AI 写作暂不可用：{aiUnavailable}</span>
        </div>
      )}
    </>
  );
}

function Label({ long, short }: { long: string; short: string }) {
  return (
    <>
        <span className="se-label-long">{long}</span>
        <span className="se-label-short">{short}</span>
    </>
  );
}

function AiButton(props: { icon: 'clean' | 'emoji' | 'lightbulb'; long: string; short: string; busy: boolean; disabled: boolean; unavailable?: string; onClick: () => void; testId: string }) {
  const button = (
    <Button variant="minimal" icon={props.icon} loading={props.busy} disabled={props.disabled || Boolean(props.unavailable)} onClick={props.onClick} data-testid={props.testId}>
      <Label long={props.long} short={props.short} />
    </Button>
  );
  return props.unavailable ? (
    <Tooltip content={props.unavailable} placement="bottom" compact>
      <span className="se-tooltip-target">{button}</span>
    </Tooltip>
  ) : (
    button
  );
}
