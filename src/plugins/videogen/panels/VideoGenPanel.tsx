/**
 * /store/wsVideo and /store/tsVideo (part 2 §2.9, §4, §5): the prompt editor with the word bank and my presets,
 * recommendations, the parameter panel, the generate button with its cost behind a confirmation, the preview and
 * the history. Image to video has the first/last-frame and image-reference tabs. The state is the screen's
 * (videogen-state.ts); these components render it.
 */
import { Button, Callout } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { GenerationConfirms, PageHeader, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { VideoGenStateToken, type VideoGenScreen, type VideoGenState } from '../videogen-state';
import { MODE_LABEL, costOf, engineView, selectedRecord, type VideoKind } from '../videogen-view';
import { History, Preview } from './History';
import { Parameters } from './Parameters';
import { Pictures } from './Pictures';
import { PromptEditor } from './PromptEditor';
import './videogen.css';

export const TextToVideoPanel = (props: PanelProps) => <VideoGenPanel {...props} kind="text" />;
export const ImageToVideoPanel = (props: PanelProps) => <VideoGenPanel {...props} kind="image" />;

const TITLES: Record<VideoKind, { title: string; subtitle: string; icon: 'mobile-video' | 'film' }> = {
  text: { title: '文生视频', subtitle: '一句话描述画面，生成短视频片段', icon: 'mobile-video' },
  image: { title: '图生视频', subtitle: '上传一张图片，让画面动起来', icon: 'film' },
};

function VideoGenPanel({ kind, closed$ }: PanelProps & { kind: VideoKind }) {
  const screen = useOpenedScreen(VideoGenStateToken, (state: VideoGenState) => state.open(kind, closed$));
  const engines = useStore(screen.engines);
  const { engine, unavailable, proOpen, percent } = engineView(engines.value, kind);
  const { title, subtitle, icon } = TITLES[kind];
  return (
    <div className="vg-page" data-testid="videogen" data-kind={kind} data-engine={engines.loaded ? (engine ?? 'none') : undefined}>
      <div className="vg-inner">
        <PageHeader icon={icon} title={title} subtitle={subtitle} className="vg-head" />
        {unavailable && (
          <Callout intent="warning" icon="offline" className="vg-callout" data-testid="videogen-unavailable">
            {MSG.videoTextEngineMissing}。文生视频没有本机引擎，接入可灵后即可使用。
          </Callout>
        )}
        {engine === 'local' && (
          <Callout intent="primary" icon="info-sign" className="vg-callout" data-testid="videogen-local-engine">
            本机镜头运动：在本机对图片做缓慢推近与平移，有尾帧时淡入尾帧。这不是生成式模型，画面内容不会动起来；描述词与想象力仅随记录保存。
            {percent < 100 && `价格为可灵的 ${percent}%。`}
          </Callout>
        )}
        <div className="vg-layout">
          <section className="vg-form">
            {kind === 'image' && <Pictures screen={screen} />}
            <PromptEditor screen={screen} />
            <Parameters screen={screen} proOpen={proOpen} />
            <SubmitButton screen={screen} percent={percent} disabled={unavailable || !engines.loaded} />
          </section>
          <Side screen={screen} />
        </div>
      </div>
      <Confirmations screen={screen} percent={percent} />
    </div>
  );
}

function SubmitButton({ screen, percent, disabled }: { screen: VideoGenScreen; percent: number; disabled: boolean }) {
  const form = useValue(screen.form$);
  const sending = useValue(screen.submitting$);
  return (
    <div className="vg-submit">
      <Button intent="primary" size="large" fill icon="video" loading={sending} disabled={disabled} onClick={() => screen.ask()} data-testid="videogen-submit">
        生成视频 · {costOf(form, percent)} 积分
      </Button>
    </div>
  );
}

function Side({ screen }: { screen: VideoGenScreen }) {
  const history = useStore(screen.history);
  const selectedId = useValue(screen.selectedId$);
  const list = history.value ?? [];
  const selected = selectedRecord(list, selectedId);
  return (
    <section className="vg-side">
      <Preview record={selected} onDelete={(r) => screen.deletion.ask(r)} />
      <History
        list={list}
        loading={!history.loaded && history.loading}
        selectedId={selected?.id}
        onChoose={(r) => screen.choose(r)}
        onDelete={(r) => screen.deletion.ask(r)}
        onRefresh={() => screen.history.reload()}
      />
    </section>
  );
}

function Confirmations({ screen, percent }: { screen: VideoGenScreen; percent: number }) {
  const form = useValue(screen.form$);
  return (
    <GenerationConfirms
      screen={screen}
      busy={false}
      generate={{
        icon: 'video',
        title: `确认生成 ${form.duration} 秒${MODE_LABEL[form.mode]}视频？`,
        text: `将消耗 ${costOf(form, percent)} 积分；生成失败会自动退回。`,
        confirmText: '确定生成',
        onConfirm: () => screen.submit(),
      }}
      remove={{ title: '删除这条生成记录？', text: '删除后视频不可恢复。' }}
      classPrefix="vg"
    />
  );
}
