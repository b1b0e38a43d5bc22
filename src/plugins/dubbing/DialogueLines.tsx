/**
 * A dialogue's lines: each with its role (its colour), its words (pause and emotion marks as chips), the pause after
 * it, a preview, and moves. The line being edited shows the script editor; the others show their text, so a long
 * dialogue keeps one editor on the page.
 */
import { memo, type ReactNode } from 'react';
import { Button, Menu, MenuItem, Popover, Spinner, Tooltip } from '@blueprintjs/core';
import { LIMITS, countChars, estimateSeconds } from '../../contract';
import { chipLabel, findMarkers, HTMLSelect, ScriptEditor } from '../../core';
import type { DubLine, DubRole } from './dub-draft';

export interface LineActions {
  activate(id: string): void;
  setText(id: string, text: string): void;
  setRole(id: string, roleId: string): void;
  setPause(id: string, seconds: number): void;
  preview(id: string): void;
  move(id: string, delta: number): void;
  insertAfter(id: string): void;
  remove(id: string): void;
}

export interface LineView {
  line: DubLine;
  role: DubRole;
  tone: number;
  previewing: boolean;
  previewReady: boolean;
  playing: boolean;
}

/** The words of a script with its marks as chips (the editor's look, without the editor). */
export function ScriptText({ text }: { text: string }): ReactNode {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of findMarkers(text)) {
    if (m.start > at) parts.push(text.slice(at, m.start));
    parts.push(
      <span key={m.start} className={`dub-chip ${m.kind}`}>
        {chipLabel(m)}
      </span>,
    );
    at = m.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

export const DialogueLines = memo(function DialogueLines(props: { views: LineView[]; roles: DubRole[]; activeId: string | null; flaggedId: string | null; actions: LineActions }) {
  const { views, roles, activeId, flaggedId, actions } = props;
  return (
    <ol className="dub-lines" data-testid="dub-lines">
      {views.map((v, i) => (
        <LineRow key={v.line.id} view={v} index={i} count={views.length} roles={roles} active={v.line.id === activeId} flagged={v.line.id === flaggedId} actions={actions} />
      ))}
    </ol>
  );
});

function LineRow({ view, index, count, roles, active, flagged, actions }: { view: LineView; index: number; count: number; roles: DubRole[]; active: boolean; flagged: boolean; actions: LineActions }) {
  const { line, role } = view;
  const chars = countChars(line.text);
  const seconds = chars > 0 ? Math.max(1, Math.round(estimateSeconds(line.text, role.rate))) : 0;
  const menu = (
    <Menu>
      <MenuItem icon="arrow-up" text="上移" disabled={index === 0} onClick={() => actions.move(line.id, -1)} />
      <MenuItem icon="arrow-down" text="下移" disabled={index === count - 1} onClick={() => actions.move(line.id, 1)} />
      <MenuItem icon="add-row-bottom" text="在下方添加一句" onClick={() => actions.insertAfter(line.id)} />
      <MenuItem icon="trash" intent="danger" text="删除这一句" onClick={() => actions.remove(line.id)} data-testid="dub-line-remove" />
    </Menu>
  );
  return (
    <li className={`dub-line tone-${view.tone} ${active ? 'active' : ''} ${flagged ? 'flagged' : ''}`} data-testid="dub-line" data-line-id={line.id} data-index={index + 1}>
      <div className="dub-line-head">
        <span className="dub-line-index">{index + 1}</span>
        <HTMLSelect className="dub-line-role" value={line.roleId} onChange={(e) => actions.setRole(line.id, e.currentTarget.value)} aria-label="角色" data-testid="dub-line-role">
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name || '未命名角色'}
            </option>
          ))}
        </HTMLSelect>
        <span className="dub-line-voice" title={role.voice?.name}>{role.voice?.name ?? '未选择声音'}</span>
        <span className="dub-line-meta">{chars > 0 ? `${chars}字 · 约${seconds}秒` : ''}</span>
        <Tooltip content="这句之后的停顿（句间隔之外）" placement="top" compact>
          <HTMLSelect className="dub-line-pause" value={String(line.pauseAfter)} onChange={(e) => actions.setPause(line.id, Number(e.currentTarget.value))} aria-label="句后停顿" data-testid="dub-line-pause">
            <option value="0">句后无停顿</option>
            {LIMITS.pauseChoices.map((s) => (
              <option key={s} value={String(s)}>
                句后停顿 {s} 秒
              </option>
            ))}
          </HTMLSelect>
        </Tooltip>
        <Tooltip content={view.previewReady ? '播放试听' : '试听这一句'} placement="top" compact>
          <Button
            variant="minimal"
            size="small"
            icon={view.previewing ? <Spinner size={14} /> : view.playing ? 'pause' : 'volume-up'}
            aria-label="试听这一句"
            onClick={() => actions.preview(line.id)}
            className={view.previewReady ? 'ready' : ''}
            data-testid="dub-line-preview"
          />
        </Tooltip>
        <Popover content={menu} placement="bottom-end">
          <Button variant="minimal" size="small" icon="more" aria-label="更多操作" data-testid="dub-line-menu" />
        </Popover>
      </div>
      {active ? (
        <div className="dub-line-editor">
          <ScriptEditor value={line.text} onChange={(text) => actions.setText(line.id, text)} channelApi={role.voice?.api} placeholder={`${role.name || '角色'}的台词，可在光标处插入停顿…`} />
        </div>
      ) : (
        <button type="button" className={`dub-line-text ${line.text.trim() ? '' : 'empty'}`} onClick={() => actions.activate(line.id)} data-testid="dub-line-text">
          {line.text.trim() ? <ScriptText text={line.text} /> : '点击输入台词'}
        </button>
      )}
    </li>
  );
}
