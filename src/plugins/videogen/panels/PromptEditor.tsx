import { Button, ButtonGroup, Icon, Spinner, Tag, TextArea, Tooltip } from '@blueprintjs/core';
import { LIMITS, MSG, type PromptGroup } from '../../../contract';
import { LoopingVideo, useStore, useValue } from '../../../core';
import type { VideoGenScreen } from '../videogen-state';
import { composePrompt } from '../videogen-view';
import { Presets } from './Presets';

/** 描述词: the prompt with its chosen words and counter, the word bank, the recommendations and my presets. */
export function PromptEditor({ screen }: { screen: VideoGenScreen }) {
  const form = useValue(screen.form$);
  const panel = useValue(screen.panel$);
  const composed = composePrompt(form);
  const engines = useStore(screen.engines);
  // The camera move made here does not read the prompt (Kling does, and requires it).
  const local = engines.value?.[screen.kind].engine === 'local';
  return (
    <div className="vg-card">
      <div className="vg-card-head">
        <span className="vg-label">描述词</span>
        <ButtonGroup variant="minimal">
          <Button icon="lightbulb" text="灵感词库" active={panel === 'words'} onClick={() => screen.toggleWords()} data-testid="videogen-words-open" />
          <Button icon="bookmark" text="我的预设" onClick={() => screen.openPresets()} data-testid="videogen-presets-open" />
        </ButtonGroup>
      </div>
      {local && (
        <p className="vg-prompt-note" data-testid="videogen-prompt-optional">
          {MSG.videoPromptReferenceOnly}
        </p>
      )}
      <TextArea
        fill
        rows={4}
        value={form.content}
        maxLength={LIMITS.promptMaxChars}
        onChange={(e) => screen.patch({ content: e.target.value })}
        placeholder={screen.kind === 'text' ? '描述你想要的画面，例如：海边日落，金色阳光洒在海面上，镜头缓慢推进' : '描述画面要如何运动，例如：镜头缓慢推近，人物微笑'}
        data-testid="videogen-prompt"
      />
      {form.chosen.length > 0 && (
        <div className="vg-chosen" data-testid="videogen-chosen">
          {form.chosen.map((w) => (
            <Tag key={w} round interactive onRemove={() => screen.dropWord(w)}>
              {w}
            </Tag>
          ))}
        </div>
      )}
      <div className="vg-counter">
        {[...composed].length}/{LIMITS.promptMaxChars}
      </div>
      {panel === 'words' && <WordBank screen={screen} chosen={form.chosen} />}
      <Recommendations screen={screen} />
      <Presets screen={screen} />
    </div>
  );
}

function WordBank({ screen, chosen }: { screen: VideoGenScreen; chosen: string[] }) {
  const words = useStore(screen.words);
  return (
    <div className="vg-words" data-testid="videogen-words">
      {!words.loaded ? (
        <Spinner size={20} />
      ) : words.value!.length === 0 ? (
        <span className="vg-muted">词库暂无内容</span>
      ) : (
        words.value!.map((group: PromptGroup) => (
          <div key={group.name} className="vg-word-group">
            <span className="vg-word-group-name">
              {group.name}
              {group.list.some((w) => w.is_multi === 1) ? <small>（可多选）</small> : null}
            </span>
            <div className="vg-word-list">
              {group.list.map((w) => {
                const tag = (
                  <Tag
                    key={w.name}
                    round
                    interactive
                    minimal={!chosen.includes(w.name)}
                    intent={chosen.includes(w.name) ? 'primary' : 'none'}
                    onClick={() => screen.pickWord(group, w.name)}
                    data-testid="videogen-word"
                  >
                    {w.name}
                  </Tag>
                );
                return w.demo_url ? (
                  <Tooltip key={w.name} placement="top" content={<WordDemo url={w.demo_url} />}>
                    {tag}
                  </Tooltip>
                ) : (
                  tag
                );
              })}
            </div>
          </div>
        ))
      )}
    </div>
  );
}

/** A word's demo: a short looping clip, or a picture. */
function WordDemo({ url }: { url: string }) {
  return /\.(mp4|mov|webm)(\?|$)/i.test(url) ? (
    <LoopingVideo className="vg-word-demo" src={url} />
  ) : (
    <img className="vg-word-demo" src={url} alt="" />
  );
}

function Recommendations({ screen }: { screen: VideoGenScreen }) {
  const shown = useValue(screen.shown$);
  return (
    <div className="vg-recommend">
      <div className="vg-card-head">
        <span className="vg-label vg-label-small">推荐描述词</span>
        <Button size="small" variant="minimal" icon="refresh" text="换一批" onClick={() => screen.shuffle()} data-testid="videogen-recommend-refresh" />
      </div>
      {shown.length === 0 ? (
        <span className="vg-muted">暂无推荐</span>
      ) : (
        <div className="vg-recommend-list">
          {shown.map((r) => (
            <button type="button" key={r.id} className="vg-recommend-item" onClick={() => screen.patch({ content: r.content })} data-testid="videogen-recommend">
              {r.image ? <img src={r.image} alt="" /> : <Icon icon="lightbulb" />}
              <span>{r.content}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
