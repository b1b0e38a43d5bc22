/** 创作音乐: the description with its suggestion chips, 纯音乐 or 带人声, the lyrics (section tags; empty: AI writes them), the title, and 生成音乐 with its price. */
import { useRef } from 'react';
import { Button, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { CountedField, CountedTextArea, Segments, useStore, useValue } from '../../../core';
import type { MusicScreen } from '../music-state';
import { MUSIC_CHIPS, SECTION_TAGS, addChip } from '../music-view';

const M = LIMITS.music;

export function MusicForm({ screen }: { screen: MusicScreen }) {
  const form = useValue(screen.form$);
  const submitting = useValue(screen.submitting$);
  const engine = useStore(screen.engine);
  const lyricsRef = useRef<HTMLTextAreaElement | null>(null);
  const configured = Boolean(engine.value?.engine);
  const credits = engine.value?.credits ?? M.defaultCredits;
  const patch = screen.patch.bind(screen);

  const insertTag = (tag: string) => {
    const el = lyricsRef.current;
    const at = el ? el.selectionStart : form.lyrics.length;
    const before = form.lyrics.slice(0, at);
    const text = `${before}${before && !before.endsWith('\n') ? '\n' : ''}${tag}\n${form.lyrics.slice(at)}`;
    patch({ lyrics: text.slice(0, M.lyricsMaxChars) });
  };

  return (
    <section className="tool-card tool-form" aria-label="创作音乐" data-testid="music-form">
      <CountedField label="音乐描述" className="tool-group" id="mus-prompt" testId="music-prompt" rows={4} maxLength={M.promptMaxChars}
        value={form.prompt} onChange={(prompt) => patch({ prompt })} placeholder="描述想要的音乐：风格、情绪、乐器、节奏、使用场景……" />
      <div className="mus-chips" data-testid="music-chips">
        {MUSIC_CHIPS.map((g) => (
          <div key={g.group} className="mus-chip-row">
            <span className="mus-chip-group">{g.group}</span>
            <span className="mus-chip-words">
              {g.words.map((w) => (
                <button key={w} type="button" className="mus-chip" onClick={() => patch({ prompt: addChip(form.prompt, w).slice(0, M.promptMaxChars) })} data-testid="music-chip">
                  {w}
                </button>
              ))}
            </span>
          </div>
        ))}
      </div>

      <FormGroup label="类型" className="tool-group">
        <Segments fill value={String(form.instrumental)} options={[['1', '纯音乐'], ['0', '带人声']]} onChange={(v) => patch({ instrumental: v === '1' ? 1 : 0 })} testId="music-kind" />
      </FormGroup>

      {form.instrumental === 0 && (
        <FormGroup label="歌词" labelFor="mus-lyrics" className="tool-group" helperText="留空则由 AI 根据描述作词；用段落标签划分结构">
          <div className="mus-tags">
            {SECTION_TAGS.map((tag) => (
              <button key={tag} type="button" className="mus-tag" onClick={() => insertTag(tag)} data-testid="music-tag">
                {tag}
              </button>
            ))}
          </div>
          <CountedTextArea
            id="mus-lyrics"
            inputRef={lyricsRef}
            value={form.lyrics}
            onChange={(lyrics) => patch({ lyrics })}
            maxLength={M.lyricsMaxChars}
            rows={7}
            placeholder={'[Verse]\n写下主歌……\n\n[Chorus]\n写下副歌……'}
            testId="music-lyrics"
          />
        </FormGroup>
      )}

      <FormGroup label="歌曲名称" labelFor="mus-title" className="tool-group">
        <InputGroup id="mus-title" value={form.title} maxLength={M.titleMaxChars} placeholder="给作品起个名字" onValueChange={(title) => patch({ title })} data-testid="music-title" />
      </FormGroup>

      <Button
        className="mus-generate"
        intent="primary"
        size="large"
        icon="music"
        fill
        text={`生成音乐 · ${credits} 积分`}
        disabled={!configured}
        loading={submitting}
        onClick={() => screen.ask()}
        data-testid="music-generate"
      />
      <p className="mus-hint">
        <Icon icon="info-sign" size={12} /> 生成时预扣积分，失败全额退回；一首约需 1–3 分钟
      </p>
    </section>
  );
}
