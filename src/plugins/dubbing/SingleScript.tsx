/**
 * Single mode: one voice reads the whole text, written in the script editor. Below it, the lines the text will be
 * spoken and subtitled as (cut at line breaks and sentence ends), each with its preview.
 */
import { memo, useState } from 'react';
import { Button, Icon, Spinner } from '@blueprintjs/core';
import { LIMITS } from '../../contract';
import { ScriptEditor } from '../../core';
import { ScriptText } from './DialogueLines';
import type { SpokenLine } from './dub-draft';

const FOLDED = 4;

export interface SingleScriptProps {
  text: string;
  channelApi?: string;
  lines: SpokenLine[];
  previewing: (line: SpokenLine) => boolean;
  playing: (line: SpokenLine) => boolean;
  onChange(text: string): void;
  onPreview(lineId: string): void;
}

export const SingleScript = memo(function SingleScript({ text, channelApi, lines, previewing, playing, onChange, onPreview }: SingleScriptProps) {
  const [open, setOpen] = useState(false);
  const shown = open ? lines : lines.slice(0, FOLDED);
  return (
    <div className="dub-single">
      <div className="dub-single-editor">
        <ScriptEditor
          value={text}
          onChange={onChange}
          channelApi={channelApi}
          limit={LIMITS.dubbing.maxChars}
          onAudition={lines[0] ? () => onPreview(lines[0]!.id) : undefined}
          auditionBusy={lines[0] ? previewing(lines[0]) : false}
          placeholder="输入或粘贴要配音的文字。每个段落、每个句号处分句，每句对应一条字幕；可在光标处插入停顿…"
        />
      </div>
      {lines.length > 0 && (
        <section className="dub-split" data-testid="dub-split">
          <header className="dub-split-head">
            <Icon icon="list" size={12} />
            <span>
              分句预览 · 共 {lines.length} 句（每句一条字幕，最多 {LIMITS.dubbing.maxLines} 句）
            </span>
          </header>
          <ol className="dub-split-list">
            {shown.map((line, i) => (
              <li key={line.id} className="dub-split-line" data-testid="dub-split-line">
                <span className="dub-line-index">{i + 1}</span>
                <span className="dub-split-text">
                  <ScriptText text={line.text} />
                </span>
                <Button
                  variant="minimal"
                  size="small"
                  icon={previewing(line) ? <Spinner size={14} /> : playing(line) ? 'pause' : 'volume-up'}
                  aria-label={`试听第${i + 1}句`}
                  onClick={() => onPreview(line.id)}
                  data-testid="dub-split-preview"
                />
              </li>
            ))}
          </ol>
          {lines.length > FOLDED && (
            <Button size="small" variant="minimal" icon={open ? 'chevron-up' : 'chevron-down'} text={open ? '收起' : `展开全部 ${lines.length} 句`} onClick={() => setOpen(!open)} className="dub-split-more" />
          )}
        </section>
      )}
    </div>
  );
});
