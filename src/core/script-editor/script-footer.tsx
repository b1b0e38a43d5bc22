/**
 * The script editor's footer: the language cascader and the emotion selector where the channel has them, 试听, the
 * estimated length and the counter against the channel's limit.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@blueprintjs/core';
import { HTMLSelect } from '../select';
import { API, LIMITS, type LanguageOption } from '../../contract';
import { useService } from '../react';
import { TOKENS, type ApiClient } from '../tokens';
import { AUDITION_LABELS } from './editor-state';

/** What the editor's footer shows, as the editor's owner gives it (part of ScriptEditorProps). */
export interface ScriptOptions {
  /** The voice's channel (fish, nw, …): sets the limit (500 for nw), hides pauses for fish and nw, picks the languages. */
  channelApi?: string;
  /** The channel has a language choice (options from API.voices.language). */
  showLanguage?: boolean;
  language?: string;
  onLanguageChange?: (language: string) => void;
  /** The channel has emotions (LIMITS.emotions). */
  showEmotion?: boolean;
  emotion?: string;
  onEmotionChange?: (emotion: string) => void;
  /** Shown as 试听 and in the palette while the editor has the cursor. */
  onAudition?: () => void;
  auditionBusy?: boolean;
  /** The audition is ready and unchanged: the button says 播放试听 (as the preview's does). */
  auditionReady?: boolean;
}

export interface ScriptFooterProps extends ScriptOptions {
  counter: { count: number; limit: number; over: boolean; near: boolean };
  seconds: number;
}

export function ScriptFooter(props: ScriptFooterProps) {
  const { counter, seconds } = props;
  const languages = useLanguages(props.showLanguage ? props.channelApi : undefined);
  const counterClass = counter.over ? 'over' : counter.near ? 'near' : '';
  return (
    <div className="se-footer">
      <div className="se-options">
        {props.showLanguage && languages.length > 0 && (
          <ScriptSelect label="语言" testId="script-language" value={props.language ?? ''} onChange={props.onLanguageChange}>
            <option value="">默认语言</option>
            {languages.map((l) =>
              l.children?.length ? (
                <optgroup key={l.value} label={l.label}>
                  {l.children.map((c) => (
                    <option key={c.value} value={c.value}>
                      {l.label} · {c.label}
                    </option>
                  ))}
                </optgroup>
              ) : (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ),
            )}
          </ScriptSelect>
        )}
        {props.showEmotion && (
          <ScriptSelect label="情绪" testId="script-emotion" value={props.emotion ?? 'default'} onChange={props.onEmotionChange}>
            {LIMITS.emotions.map((e) => (
              <option key={e.value} value={e.value}>
                情绪：{e.label}
              </option>
            ))}
          </ScriptSelect>
        )}
        {props.onAudition && (
          <Button size="small" icon="volume-up" text={props.auditionReady ? AUDITION_LABELS.ready : AUDITION_LABELS.idle} loading={props.auditionBusy} onClick={props.onAudition} data-testid="script-audition" />
        )}
      </div>
      <div className="se-meta">
        {seconds > 0 && <span className="se-estimate">约 {seconds} 秒</span>}
        <span className={`se-counter ${counterClass}`} aria-live="polite" data-testid="script-counter">
          {counter.count}
          <span className="se-counter-limit"> / {counter.limit}</span>
        </span>
      </div>
    </div>
  );
}

function ScriptSelect({ label, testId, value, onChange, children }: { label: string; testId: string; value: string; onChange?: (value: string) => void; children: ReactNode }) {
  return (
    <HTMLSelect className="se-select" value={value} onChange={(e) => onChange?.(e.currentTarget.value)} aria-label={label} data-testid={testId} iconName="caret-down">
      {children}
    </HTMLSelect>
  );
}

/** The language cascader's options for a channel; none while no channel is chosen or the channel has none. */
function useLanguages(channelApi: string | undefined): LanguageOption[] {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [options, setOptions] = useState<LanguageOption[]>([]);
  useEffect(() => {
    setOptions([]);
    if (!channelApi) return;
    const controller = new AbortController();
    api.call(API.voices.language, { api: channelApi as never }, { silent: true, signal: controller.signal }).then(
      (reply) => {
        if (!controller.signal.aborted) setOptions(reply.language);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, channelApi]);
  return options;
}
