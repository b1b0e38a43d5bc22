/**
 * AI writing (part 2 §2.2): a theme from API.writing.theme (its topics fill the description), a topic description of
 * at most 500 characters with a sample, a word count (不限, 150, 300, 500), and start. Empty description: 请填写主题描述！
 */
import { useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { API, LIMITS, MSG, type WritingTheme } from '../../contract';
import { useObservable, useService } from '../react';
import { TOKENS, type ApiClient, type Notifier } from '../tokens';
import type { ScriptEditorState } from './editor-state';

export interface AiWritingDialogProps {
  isOpen: boolean;
  onClose: () => void;
  /** The script already has text (it will be replaced). */
  hasText: boolean;
  /** The written script; true when the editor took it (within the limit). */
  onWritten: (content: string) => boolean;
  onFailure: (err: unknown) => void;
}

/** The sample description: about the chosen topic when there is one. */
export function sampleTopic(theme?: string, topic?: string): string {
  const subject = topic || theme;
  return subject
    ? `围绕「${subject}」写一段口播文案：开头用一句话抓住注意力，中间讲清楚两到三个要点，语气亲切自然，结尾引导观众点赞关注。`
    : '为一家社区咖啡店写一段开业宣传口播：介绍招牌拿铁和手工甜点，开业首周全场八折，语气亲切有感染力，结尾邀请大家到店打卡。';
}

type Length = (typeof LIMITS.writingLengths)[number]['value'];

export function AiWritingDialog(props: AiWritingDialogProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const state = useService<ScriptEditorState>(TOKENS.ScriptEditorState);
  const unavailable = useObservable(state.aiUnavailable$, state.aiUnavailable$.value);
  const [themes, setThemes] = useState<WritingTheme[] | null>(null);
  const [themesError, setThemesError] = useState<string | null>(null);
  const [theme, setTheme] = useState<string>('');
  const [topic, setTopic] = useState<string>('');
  const [keyword, setKeyword] = useState('');
  const [length, setLength] = useState<Length>(0);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!props.isOpen || themes !== null) return;
    const controller = new AbortController();
    api.call(API.writing.theme, {}, { silent: true, signal: controller.signal }).then(
      (reply) => {
        if (controller.signal.aborted) return;
        setThemes(reply.list);
        setThemesError(null);
        if (reply.list[0]) setTheme(reply.list[0].name);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        const message = err instanceof Error ? err.message : MSG.serverError;
        state.noteAiFailure(message);
        setThemesError(message);
      },
    );
    return () => controller.abort();
  }, [props.isOpen, themes, api, state]);

  const chosen = themes?.find((t) => t.name === theme);

  const start = async () => {
    const text = keyword.trim();
    if (!text) {
      notifier.warn(MSG.topicRequired);
      return;
    }
    setBusy(true);
    try {
      const { content } = await api.call(API.writing.aiWriting, { keyword: text, length }, { silent: true });
      if (props.onWritten(content)) props.onClose();
    } catch (err) {
      props.onFailure(err);
    } finally {
      setBusy(false);
    }
  };

  const notice = unavailable ?? themesError;
  return (
    <Dialog isOpen={props.isOpen} onClose={props.onClose} title="AI 写作" icon="lightbulb" className="se-ai-dialog">
      <DialogBody>
        {notice && (
          <Callout intent="warning" icon="info-sign" className="se-ai-callout" data-testid="ai-writing-notice">
            {notice}
          </Callout>
        )}
        <FormGroup label="选择主题" className="se-ai-group">
          {themes === null && !themesError ? (
            <Spinner size={16} className="se-ai-spinner" />
          ) : themes && themes.length > 0 ? (
            <div className="se-ai-tags">
              {themes.map((t) => (
                <Tag key={t.name} interactive round size="large" intent={t.name === theme ? 'primary' : 'none'} minimal={t.name !== theme} onClick={() => { setTheme(t.name); setTopic(''); }}>
                  {t.name}
                </Tag>
              ))}
            </div>
          ) : (
            <p className="se-ai-muted">暂无可选主题，可直接填写主题描述。</p>
          )}
          {chosen && chosen.list.length > 0 && (
            <div className="se-ai-topics">
              {chosen.list.map((t) => (
                <Tag key={t.name} interactive minimal={t.name !== topic} intent={t.name === topic ? 'primary' : 'none'} onClick={() => { setTopic(t.name); setKeyword(t.name); }}>
                  {t.name}
                </Tag>
              ))}
            </div>
          )}
        </FormGroup>
        <FormGroup label="主题描述" labelFor="ai-keyword" labelInfo={<span className="se-ai-count">{[...keyword].length}/{LIMITS.topicMaxChars}</span>} className="se-ai-group">
          <TextArea
            id="ai-keyword"
            fill
            rows={4}
            value={keyword}
            maxLength={LIMITS.topicMaxChars}
            onChange={(e) => setKeyword(e.currentTarget.value)}
            placeholder="描述您想要的文案：主题、卖点、语气、面向的观众…"
            data-testid="ai-keyword"
          />
          <Button variant="minimal" size="small" icon="manual" text="示例文案" className="se-ai-sample" onClick={() => setKeyword(sampleTopic(theme, topic))} data-testid="ai-sample" />
        </FormGroup>
        <FormGroup label="字数" className="se-ai-group">
          <div className="se-ai-lengths" role="radiogroup" aria-label="字数">
            {LIMITS.writingLengths.map((l) => (
              <Button key={l.value} role="radio" aria-checked={length === l.value} active={length === l.value} intent={length === l.value ? 'primary' : 'none'} variant="outlined" text={l.label} onClick={() => setLength(l.value)} />
            ))}
          </div>
        </FormGroup>
        {props.hasText && <p className="se-ai-muted">生成的文案将替换当前台词，可按 Ctrl+Z 撤销。</p>}
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="c" text="取消" onClick={props.onClose} />,
          <Button key="s" intent="primary" icon="lightbulb" text="开始写作" loading={busy} disabled={Boolean(unavailable)} onClick={() => void start()} data-testid="ai-start" />,
        ]}
      />
    </Dialog>
  );
}
