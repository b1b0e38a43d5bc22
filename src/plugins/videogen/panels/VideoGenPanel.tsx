/**
 * /store/wsVideo and /store/tsVideo (part 2 §2.9, §4, §5): the prompt editor with the word bank and my presets,
 * recommendations, the parameter panel, the generate button with its cost behind a confirmation, the preview and
 * the history. Image to video has the first/last-frame and image-reference tabs.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  AnchorButton, Button, ButtonGroup, Callout, Dialog, DialogBody, FormGroup, Icon, InputGroup, NonIdealState, Slider, Spinner, Tab, Tabs, Tag, TextArea, Tooltip,
} from '@blueprintjs/core';
import { API, ImageToVideoMode, LIMITS, MSG, VideoTaskStatus, type Material, type PromptGroup, type PromptSuggestion, type UserPreset, type VideoRecord } from '../../../contract';
import {
  ConfirmAlert, ConfirmDelete, TOKENS, UploadBox, leadingGate, useDebounced, useDeletion, useRemote, useRemoteList, useService,
  type ApiClient, type AuthService, type Notifier, type PanelProps,
  VideoPlayer, TIMINGS,
} from '../../../core';
import {
  STATUS_TEXT, composePrompt, costOf, emptyForm, formFromRecord, formProblem, imaginationWarns, inProgress, pickRandom, submitParams, toggleWord,
  type VideoForm, type VideoKind,
} from '../videogen-view';
import './videogen.css';

export const TextToVideoPanel = (props: PanelProps) => <VideoGenPanel {...props} kind="text" />;
export const ImageToVideoPanel = (props: PanelProps) => <VideoGenPanel {...props} kind="image" />;

const TITLES: Record<VideoKind, { title: string; subtitle: string; icon: 'mobile-video' | 'film' }> = {
  text: { title: '文生视频', subtitle: '一句话描述画面，生成短视频片段', icon: 'mobile-video' },
  image: { title: '图生视频', subtitle: '上传一张图片，让画面动起来', icon: 'film' },
};
const MODE_LABEL = { std: '标准', pro: '高品质' } as const;

function VideoGenPanel({ kind }: PanelProps & { kind: VideoKind }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const auth = useService<AuthService>(TOKENS.AuthService);
  const [form, setForm] = useState<VideoForm>(emptyForm);
  const patch = (change: Partial<VideoForm>) => setForm((f) => ({ ...f, ...change }));

  const engines = useRemote('engines', (signal) => api.call(API.videogen.engine, {}, { silent: true, signal }));
  const engine = engines.value?.[kind];
  const unavailable = engines.loaded && !engine?.engine;
  const proOpen = engine?.pro === 1;

  const [round, setRound] = useState(0);
  const history = useRemoteList<VideoRecord>(
    `history:${kind}:${round}`,
    async (signal) => (await api.call(API.videogen.list, { type: kind, page: 1, limit: 0 }, { silent: true, signal })).list,
    { poll: { intervalMs: TIMINGS.generationPollMs, keepGoing: () => true } },
  );
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = history.list.find((r) => r.id === selectedId) ?? history.list.find((r) => r.status === VideoTaskStatus.Success);

  const [confirming, setConfirming] = useState(false);
  const [sending, setSending] = useState(false);
  const gate = useMemo(() => leadingGate(TIMINGS.submitThrottleMs), []);
  const debounce = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (debounce.current && clearTimeout(debounce.current)), []);
  const cost = costOf(form);

  const ask = () => {
    if (!gate()) return;
    const problem = formProblem(kind, form);
    if (problem) return notifier.warn(problem);
    if (form.mode === 'pro' && !proOpen) return notifier.warn(MSG.highQualityMaintenance);
    setConfirming(true);
  };
  const submit = () => {
    setConfirming(false);
    if (debounce.current) clearTimeout(debounce.current);
    debounce.current = setTimeout(() => {
      setSending(true);
      api
        .call(API.videogen.create, submitParams(kind, form))
        .then((made) => {
          notifier.success('已提交，生成完成后会出现在历史记录中');
          setSelectedId(made.id);
          setRound((n) => n + 1);
          void auth.refreshProfile().catch(() => undefined);
        })
        .catch(() => undefined)
        .finally(() => setSending(false));
    }, LIMITS.createDebounceMs);
  };

  const deletion = useDeletion<VideoRecord>((r) => api.call(API.videogen.remove, { id: r.id }), (r) => {
    if (r.id === selectedId) setSelectedId(null);
    setRound((n) => n + 1);
  });
  const choose = (r: VideoRecord) => {
    setSelectedId(r.id);
    setForm(formFromRecord(r));
    notifier.info('已回填该记录的描述词和参数');
  };

  const { title, subtitle, icon } = TITLES[kind];
  return (
    <div className="vg-page" data-testid="videogen" data-kind={kind} data-engine={engines.loaded ? (engine?.engine ?? 'none') : undefined}>
      <div className="vg-inner">
        <header className="vg-head">
          <h2 className="vg-title">
            <Icon icon={icon} size={20} /> {title}
          </h2>
          <p className="vg-subtitle">{subtitle}</p>
        </header>
        {unavailable && (
          <Callout intent="warning" icon="offline" className="vg-callout" data-testid="videogen-unavailable">
            {MSG.videoTextEngineMissing}。文生视频没有本机引擎，接入可灵后即可使用。
          </Callout>
        )}
        {engine?.engine === 'local' && (
          <Callout intent="primary" icon="info-sign" className="vg-callout" data-testid="videogen-local-engine">
            本机镜头运动：在本机对图片做缓慢推近与平移，有尾帧时淡入尾帧。这不是生成式模型，画面内容不会动起来；描述词与想象力仅随记录保存。
          </Callout>
        )}
        <div className="vg-layout">
          <section className="vg-form">
            {kind === 'image' && <Pictures form={form} patch={patch} />}
            <PromptEditor kind={kind} form={form} patch={patch} />
            <Parameters form={form} patch={patch} proOpen={proOpen} />
            <div className="vg-submit">
              <Button
                intent="primary"
                size="large"
                fill
                icon="video"
                loading={sending}
                disabled={unavailable || !engines.loaded}
                onClick={ask}
                data-testid="videogen-submit"
              >
                生成视频 · {cost} 积分
              </Button>
            </div>
          </section>
          <section className="vg-side">
            <Preview record={selected} onDelete={deletion.ask} />
            <History
              list={history.list}
              loading={!history.loaded && history.loading}
              selectedId={selected?.id}
              onChoose={choose}
              onDelete={deletion.ask}
              onRefresh={() => setRound((n) => n + 1)}
            />
          </section>
        </div>
      </div>
      <ConfirmAlert
        isOpen={confirming}
        busy={false}
        icon="video"
        intent="primary"
        title={`确认生成 ${form.duration} 秒${MODE_LABEL[form.mode]}视频？`}
        text={`将消耗 ${cost} 积分；生成失败会自动退回。`}
        confirmText="确定生成"
        classPrefix="vg"
        onCancel={() => setConfirming(false)}
        onConfirm={submit}
      />
      <ConfirmDelete
        deletion={deletion}
        title="删除这条生成记录？"
        text="删除后视频不可恢复。"
        classPrefix="vg"
      />
    </div>
  );
}

function Pictures({ form, patch }: { form: VideoForm; patch: (c: Partial<VideoForm>) => void }) {
  const [picking, setPicking] = useState<'image' | 'imageTail' | null>(null);
  const check = (file: File) => (file.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null);
  const hint = `PNG/JPG，不超过 10MB，短边不小于 ${LIMITS.image.minSide} 像素`;
  const box = (field: 'image' | 'imageTail', label: string, testId: string) => (
    <FormGroup label={label} className="vg-picture">
      {form[field] ? (
        <div className="vg-picture-shown" data-testid={`${testId}-shown`}>
          <img src={form[field]} alt={label} />
          <Button size="small" icon="cross" aria-label="移除" title="移除" className="vg-picture-remove" onClick={() => patch({ [field]: '' })} />
        </div>
      ) : (
        <>
          <UploadBox type="image" accept=".png,.jpg,.jpeg" compact check={check} hint={hint} onUploaded={(u) => patch({ [field]: u.url })} data-testid={testId} />
          <Button size="small" variant="minimal" icon="folder-open" text="从素材库选择" className="vg-from-material" onClick={() => setPicking(field)} data-testid={`${testId}-material`} />
        </>
      )}
    </FormGroup>
  );
  return (
    <div className="vg-card">
      <Tabs
        id="vg-image-mode"
        selectedTabId={form.imageMode}
        onChange={(id) => patch({ imageMode: Number(id) })}
        className="vg-tabs"
      >
        <Tab id={ImageToVideoMode.FirstLastFrame} title="首尾帧" data-testid="videogen-tab-frames" />
        <Tab id={ImageToVideoMode.Reference} title="图片参考" data-testid="videogen-tab-reference" />
      </Tabs>
      {form.imageMode === ImageToVideoMode.FirstLastFrame ? (
        <div className="vg-pictures">
          {box('image', '首帧（必填）', 'videogen-first')}
          {box('imageTail', '尾帧（可选）', 'videogen-last')}
        </div>
      ) : (
        <div className="vg-pictures">{box('image', '参考图', 'videogen-reference')}</div>
      )}
      <MaterialPicker isOpen={picking !== null} onClose={() => setPicking(null)} onPick={(url) => (picking && patch({ [picking]: url }), setPicking(null))} />
    </div>
  );
}

/** The user's image materials (every uploaded picture is one); a click takes it. */
function MaterialPicker({ isOpen, onClose, onPick }: { isOpen: boolean; onClose: () => void; onPick: (url: string) => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const images = useRemoteList<Material>(isOpen ? 'material-images' : null, async (signal) =>
    (await api.call(API.material.list, { type: 'image', source: 0, page: 1, limit: 200 }, { silent: true, signal })).list,
  );
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="从素材库选择图片" icon="folder-open" className="vg-dialog">
      <DialogBody>
        {!images.loaded ? (
          <Spinner size={20} />
        ) : images.list.length === 0 ? (
          <span className="vg-muted">素材库里还没有图片，上传的图片会自动进入素材库。</span>
        ) : (
          <div className="vg-material-grid" data-testid="videogen-material-grid">
            {images.list.map((m) => (
              <button type="button" key={m.id} className="vg-material" title={m.name} onClick={() => onPick(m.url)} data-testid="videogen-material">
                <img src={m.cover || m.url} alt={m.name} loading="lazy" />
              </button>
            ))}
          </div>
        )}
      </DialogBody>
    </Dialog>
  );
}

function PromptEditor({ kind, form, patch }: { kind: VideoKind; form: VideoForm; patch: (c: Partial<VideoForm>) => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [panel, setPanel] = useState<'words' | 'presets' | null>(null);
  const words = useRemote(panel === 'words' ? 'words' : null, async (signal) => (await api.call(API.videogen.prompts, {}, { silent: true, signal })).list);
  const recommends = useRemoteList<PromptSuggestion>(`rec:${kind}`, async (signal) => (await api.call(API.videogen.recommend, { type: kind }, { silent: true, signal })).list);
  const [shuffle, setShuffle] = useState(0);
  const count = kind === 'image' ? LIMITS.recommendCountImageToVideo : LIMITS.recommendCount;
  // `shuffle` is in the list so that each refresh draws again.
  const shown = useMemo(() => pickRandom(recommends.list, count), [recommends.list, count, shuffle]);
  const composed = composePrompt(form);

  return (
    <div className="vg-card">
      <div className="vg-card-head">
        <span className="vg-label">描述词</span>
        <ButtonGroup variant="minimal">
          <Button icon="lightbulb" text="灵感词库" active={panel === 'words'} onClick={() => setPanel(panel === 'words' ? null : 'words')} data-testid="videogen-words-open" />
          <Button icon="bookmark" text="我的预设" onClick={() => setPanel('presets')} data-testid="videogen-presets-open" />
        </ButtonGroup>
      </div>
      <TextArea
        fill
        rows={4}
        value={form.content}
        maxLength={LIMITS.promptMaxChars}
        onChange={(e) => patch({ content: e.target.value })}
        placeholder={kind === 'text' ? '描述你想要的画面，例如：海边日落，金色阳光洒在海面上，镜头缓慢推进' : '描述画面要如何运动，例如：镜头缓慢推近，人物微笑'}
        data-testid="videogen-prompt"
      />
      {form.chosen.length > 0 && (
        <div className="vg-chosen" data-testid="videogen-chosen">
          {form.chosen.map((w) => (
            <Tag key={w} round interactive onRemove={() => patch({ chosen: form.chosen.filter((x) => x !== w) })}>
              {w}
            </Tag>
          ))}
        </div>
      )}
      <div className="vg-counter">
        {[...composed].length}/{LIMITS.promptMaxChars}
      </div>
      {panel === 'words' && (
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
                        minimal={!form.chosen.includes(w.name)}
                        intent={form.chosen.includes(w.name) ? 'primary' : 'none'}
                        onClick={() => patch({ chosen: toggleWord(form.chosen, group, w.name) })}
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
      )}
      <div className="vg-recommend">
        <div className="vg-card-head">
          <span className="vg-label vg-label-small">推荐描述词</span>
          <Button size="small" variant="minimal" icon="refresh" text="换一批" onClick={() => setShuffle((n) => n + 1)} data-testid="videogen-recommend-refresh" />
        </div>
        {shown.length === 0 ? (
          <span className="vg-muted">暂无推荐</span>
        ) : (
          <div className="vg-recommend-list">
            {shown.map((r) => (
              <button type="button" key={r.id} className="vg-recommend-item" onClick={() => patch({ content: r.content })} data-testid="videogen-recommend">
                {r.image ? <img src={r.image} alt="" /> : <Icon icon="lightbulb" />}
                <span>{r.content}</span>
              </button>
            ))}
          </div>
        )}
      </div>
      <Presets isOpen={panel === 'presets'} onClose={() => setPanel(null)} current={form.content} onUse={(content) => (patch({ content }), setPanel(null))} />
    </div>
  );
}

/** A word's demo: a short looping clip, or a picture. */
function WordDemo({ url }: { url: string }) {
  return /\.(mp4|mov|webm)(\?|$)/i.test(url) ? (
    <video className="vg-word-demo" src={url} autoPlay muted loop playsInline />
  ) : (
    <img className="vg-word-demo" src={url} alt="" />
  );
}

function Presets({ isOpen, onClose, current, onUse }: { isOpen: boolean; onClose: () => void; current: string; onUse: (content: string) => void }) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [keyword, setKeyword] = useState('');
  const search = useDebounced(keyword.trim(), LIMITS.presetSearchDebounceMs);
  const [round, setRound] = useState(0);
  const presets = useRemoteList<UserPreset>(isOpen ? `presets:${search}:${round}` : null, async (signal) => (await api.call(API.videogen.presets, { keyword: search }, { silent: true, signal })).list);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (!isOpen) return;
    setContent(current);
    setTitle('');
  }, [isOpen, current]);
  const deletion = useDeletion<UserPreset>((p) => api.call(API.videogen.presetRemove, { id: p.id }), () => setRound((n) => n + 1));

  const save = async () => {
    if (!content.trim()) return notifier.warn(MSG.presetContentRequired);
    setSaving(true);
    try {
      // A title typed and cleared again is refused as the spec says; an untouched title saves the content alone.
      await api.call(API.videogen.presetSave, { ...(title ? { title } : {}), content: content.trim() });
      notifier.success('预设已保存');
      setTitle('');
      setRound((n) => n + 1);
    } catch {
      /* the server's message was shown */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="我的预设" icon="bookmark" className="vg-dialog">
      <DialogBody>
        <InputGroup leftIcon="search" placeholder="搜索预设名称或内容" value={keyword} onValueChange={setKeyword} data-testid="videogen-preset-search" />
        <div className="vg-preset-list" data-testid="videogen-preset-list">
          {!presets.loaded ? (
            <Spinner size={20} />
          ) : presets.list.length === 0 ? (
            <span className="vg-muted">{search ? '没有匹配的预设' : '还没有预设，在下方保存一个吧'}</span>
          ) : (
            presets.list.map((p) => (
              <div key={p.id} className="vg-preset" data-testid="videogen-preset">
                <div className="vg-preset-text">
                  <strong>{p.title}</strong>
                  <span>{p.content}</span>
                </div>
                <Button size="small" intent="primary" text="使用" onClick={() => onUse(p.content)} data-testid="videogen-preset-use" />
                <Button size="small" variant="minimal" icon="trash" aria-label="删除" onClick={() => deletion.ask(p)} data-testid="videogen-preset-delete" />
              </div>
            ))
          )}
        </div>
        <div className="vg-preset-save">
          <span className="vg-label vg-label-small">保存为预设</span>
          <InputGroup placeholder="预设名称（可不填，默认取内容开头）" value={title} maxLength={LIMITS.nameMaxChars} onValueChange={setTitle} data-testid="videogen-preset-title" />
          <TextArea fill rows={3} placeholder="预设内容" value={content} onChange={(e) => setContent(e.target.value)} data-testid="videogen-preset-content" />
          <Button intent="primary" icon="floppy-disk" text="保存预设" loading={saving} onClick={() => void save()} data-testid="videogen-preset-save" />
        </div>
      </DialogBody>
      <ConfirmDelete
        deletion={deletion}
        title={`删除预设「${deletion.target?.title ?? ''}」？`}
        text="删除后不可恢复。"
        classPrefix="vg"
      />
    </Dialog>
  );
}

function Parameters({ form, patch, proOpen }: { form: VideoForm; patch: (c: Partial<VideoForm>) => void; proOpen: boolean }) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  return (
    <div className="vg-card vg-params">
      <FormGroup label="模式" inline className="vg-param">
        <ButtonGroup>
          <Button text="标准" active={form.mode === 'std'} intent={form.mode === 'std' ? 'primary' : 'none'} onClick={() => patch({ mode: 'std' })} data-testid="videogen-mode-std" />
          <Tooltip content={proOpen ? '画质更高，积分更多' : MSG.highQualityMaintenance} placement="top">
            <Button
              text="高品质"
              active={form.mode === 'pro'}
              intent={form.mode === 'pro' ? 'primary' : 'none'}
              className={proOpen ? '' : 'vg-closed'}
              onClick={() => (proOpen ? patch({ mode: 'pro' }) : notifier.warn(MSG.highQualityMaintenance))}
              data-testid="videogen-mode-pro"
            />
          </Tooltip>
        </ButtonGroup>
        {!proOpen && <span className="vg-maintenance">{MSG.highQualityMaintenance}</span>}
      </FormGroup>
      <FormGroup label="时长" inline className="vg-param">
        <ButtonGroup>
          {LIMITS.videoDurations.map((d) => (
            <Button key={d} text={`${d}秒`} active={form.duration === d} intent={form.duration === d ? 'primary' : 'none'} onClick={() => patch({ duration: d })} data-testid={`videogen-duration-${d}`} />
          ))}
        </ButtonGroup>
      </FormGroup>
      <FormGroup label="比例" inline className="vg-param">
        <ButtonGroup>
          {LIMITS.videoRatios.map((r) => (
            <Button key={r} active={form.ratio === r} intent={form.ratio === r ? 'primary' : 'none'} onClick={() => patch({ ratio: r })} data-testid={`videogen-ratio-${r.replace(':', 'x')}`}>
              <span className={`vg-ratio-icon r${r.replace(':', 'x')}`} />
              {r}
            </Button>
          ))}
        </ButtonGroup>
      </FormGroup>
      <FormGroup label="想象力" className="vg-param vg-slider">
        <Slider
          min={LIMITS.imagination.min}
          max={LIMITS.imagination.max}
          stepSize={LIMITS.imagination.step}
          labelStepSize={0.25}
          value={form.cfgScale}
          onChange={(v) => patch({ cfgScale: Math.round(v * 100) / 100 })}
          labelRenderer={(v) => v.toFixed(2).replace(/0$/, '')}
        />
        <div className="vg-slider-ends">
          <span>更贴近描述</span>
          <span>更有想象力</span>
        </div>
        {imaginationWarns(form.cfgScale) && (
          <Callout intent="warning" compact className="vg-warn" data-testid="videogen-imagination-warning">
            想象力较高时，画面可能偏离图片或描述词，出现图文不一致。
          </Callout>
        )}
      </FormGroup>
      <FormGroup label="反向描述词" className="vg-param">
        <TextArea fill rows={2} value={form.negative} maxLength={LIMITS.promptMaxChars} onChange={(e) => patch({ negative: e.target.value })} placeholder="不希望出现的内容，例如：模糊、变形、文字" data-testid="videogen-negative" />
      </FormGroup>
    </div>
  );
}

function Preview({ record, onDelete }: { record?: VideoRecord; onDelete: (r: VideoRecord) => void }) {
  if (!record || record.status !== VideoTaskStatus.Success) {
    return (
      <div className="vg-card vg-preview vg-preview-empty">
        <NonIdealState icon="video" title="生成的视频会在这里播放" description="在左侧填写描述词和参数，点击生成视频。" />
      </div>
    );
  }
  return (
    <div className="vg-card vg-preview" data-testid="videogen-preview">
      <VideoPlayer key={record.url} className="vg-video" src={record.url} poster={record.cover} label="生成的视频" data-testid="videogen-video" />
      <div className="vg-preview-bar">
        <span className="vg-muted">
          {record.duration}秒 · {record.aspect_ratio} · {MODE_LABEL[record.mode === 'pro' ? 'pro' : 'std']}
          {record.engine === 'local' ? ' · 本机镜头运动' : ''}
        </span>
        <span>
          <AnchorButton size="small" variant="minimal" icon="download" text="下载" href={record.url} download={`video-${record.id}.mp4`} data-testid="videogen-download" />
          <Button size="small" variant="minimal" icon="trash" text="删除" onClick={() => onDelete(record)} data-testid="videogen-preview-delete" />
        </span>
      </div>
    </div>
  );
}

function History(props: {
  list: VideoRecord[];
  loading: boolean;
  selectedId?: number;
  onChoose: (r: VideoRecord) => void;
  onDelete: (r: VideoRecord) => void;
  onRefresh: () => void;
}) {
  return (
    <div className="vg-card vg-history">
      <div className="vg-card-head">
        <span className="vg-label">历史记录</span>
        <Button size="small" variant="minimal" icon="refresh" aria-label="刷新" title="刷新" onClick={props.onRefresh} data-testid="videogen-history-refresh" />
      </div>
      {props.loading ? (
        <Spinner size={20} />
      ) : props.list.length === 0 ? (
        <span className="vg-muted">暂无记录</span>
      ) : (
        <div className="vg-history-list">
          {props.list.map((r) => (
            <div key={r.id} className={`vg-record ${props.selectedId === r.id ? 'active' : ''}`} data-testid="videogen-record" data-id={r.id} data-status={r.status}>
              <div className="vg-record-thumb">
                {r.status === VideoTaskStatus.Success ? <img src={r.cover} alt="" /> : inProgress(r) ? <Spinner size={18} /> : <Icon icon="error" intent="danger" />}
              </div>
              <div className="vg-record-text">
                <span className="vg-record-prompt" title={r.prompt}>
                  {r.prompt}
                </span>
                <span className="vg-muted">
                  {STATUS_TEXT(r)} · {r.duration}秒 · {r.aspect_ratio}
                  {r.create_time ? ` · ${r.create_time.slice(5, 16)}` : ''}
                </span>
                {r.status === VideoTaskStatus.Failed && r.error && <span className="vg-record-error">{r.error}</span>}
              </div>
              <div className="vg-record-actions">
                {r.status === VideoTaskStatus.Success && (
                  <>
                    <Button size="small" variant="minimal" icon="select" title="选择" aria-label="选择" onClick={() => props.onChoose(r)} data-testid="videogen-record-choose" />
                    <AnchorButton size="small" variant="minimal" icon="download" title="下载" aria-label="下载" href={r.url} download={`video-${r.id}.mp4`} />
                  </>
                )}
                {!inProgress(r) && <Button size="small" variant="minimal" icon="trash" title="删除" aria-label="删除" onClick={() => props.onDelete(r)} data-testid="videogen-record-delete" />}
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
