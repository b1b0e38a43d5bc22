/**
 * /cozeVideo/editVideo?id=: the project's storyboard (scenes to edit, reorder, split, merge, delete), the global
 * choices (avatar or photo, voice, aspect, cover, subtitles, background music), the price estimate and 生成视频. Saved as it changes.
 */
import { useEffect } from 'react';
import { Button, Callout, FormGroup, InputGroup, NonIdealState, Slider, Switch, Tag } from '@blueprintjs/core';
import { LIMITS, MSG, SCENE_KIND_LABELS } from '../../../contract';
import { HTMLSelect, PageHeader, RecordOptions, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { OneclickStateToken, type OneclickScreen, type OneclickState, type SaveState } from '../oneclick-state';
import { HISTORY_ROUTE, START_ROUTE, SUBTITLE_PRESETS, coverScene, type SubtitlePreset } from '../oneclick-view';
import { ProjectSettings } from './ProjectSettings';
import { SceneCard } from './SceneCard';
import './oneclick.css';

const SAVE_LABEL: Record<SaveState, string> = { idle: '有改动，稍后自动保存', saving: '保存中…', saved: '草稿已保存', failed: '保存失败' };

export default function EditPanel({ query, closed$ }: PanelProps) {
  const screen = useOpenedScreen(OneclickStateToken, (state: OneclickState) => state.open(closed$));
  const form = useValue(screen.form$);
  const saved = useValue(screen.save$);
  const pictures = useStore(screen.pictures).value ?? [];
  const id = Number(query.id);
  useEffect(() => {
    void screen.load(id);
  }, [id, screen]);
  return (
    <div className="oc-page" data-testid="oneclick-edit">
      <div className="oc-inner">
        <PageHeader icon="film" title="一键成片 · 分镜" subtitle="检查每个分镜的文案和画面：数字人口播与图片镜头交替，整段文案只配一条连贯的语音。">
          <Tag minimal round icon={saved === 'saved' ? 'tick' : 'cloud-upload'} data-testid="oneclick-save-state" data-state={saved}>
            {SAVE_LABEL[saved]}
          </Tag>
          <a className="oc-link" href={`#${HISTORY_ROUTE}`}>
            历史项目
          </a>
        </PageHeader>
        {form.scenes.length === 0 ? (
          <NonIdealState icon="film" title="还没有分镜" description="先在一键成片页粘贴文案，生成分镜。" action={<Button icon="arrow-left" text="去写文案" onClick={() => (location.hash = `#${START_ROUTE}`)} />} />
        ) : (
          <div className="tool-layout oc-layout oc-layout-edit">
            <div className="oc-scenes" data-testid="oneclick-scenes">
              <PaintBar screen={screen} />
              {form.scenes.map((scene, i) => (
                <SceneCard key={i} screen={screen} scene={scene} index={i} count={form.scenes.length} pictures={pictures} />
              ))}
            </div>
            <div className="tool-card oc-side">
              <ProjectSettings screen={screen} />
              <Globals screen={screen} />
              <Submit screen={screen} />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}

/** 生成配图 for the B-roll scenes without a picture, or why it cannot (the user picks or uploads instead). */
function PaintBar({ screen }: { screen: OneclickScreen }) {
  const engines = useStore(screen.assist.engines).value;
  const painting = useValue(screen.assist.painting$);
  if (!engines) return null;
  if (!engines.image || !engines.chat) {
    return (
      <Callout icon="media" className="oc-paint" data-testid="oneclick-paint-note">
        {engines.image ? MSG.oneclickPaintChatMissing : MSG.oneclickImageMissing}
      </Callout>
    );
  }
  return (
    <div className="oc-paint oc-paint-bar">
      <span className="oc-hint">画面镜头可自动配图：按分镜文案写画面描述并生成图片，每张 {engines.chat_credits + engines.image_credits} 积分。</span>
      <Button icon="media" text={painting.length ? `配图生成中（${painting.length}）` : '生成配图'} loading={painting.length > 0} onClick={() => void screen.assist.paint()} data-testid="oneclick-paint" />
    </div>
  );
}

function Globals({ screen }: { screen: OneclickScreen }) {
  const form = useValue(screen.form$);
  const music = useStore(screen.music).value ?? [];
  const v = LIMITS.music.bgmVolume;
  return (
    <>
      <FormGroup label="片头标题（可选）" labelFor="oc-title" className="tool-group" helperText={`显示在前 ${LIMITS.oneclick.titleSeconds} 秒的画面中间`}>
        <InputGroup id="oc-title" value={form.title_card} maxLength={LIMITS.oneclick.titleMaxChars} placeholder="不加片头标题" onValueChange={(title_card) => screen.patch({ title_card })} data-testid="oneclick-title-card" />
      </FormGroup>
      <FormGroup label="封面" labelFor="oc-cover" className="tool-group" helperText="作品封面取所选分镜的第一帧">
        <HTMLSelect id="oc-cover" fill value={coverScene(form)} onChange={(e) => screen.patch({ cover_scene: Number(e.target.value) })} data-testid="oneclick-cover">
          {form.scenes.map((s, i) => (
            <option key={i} value={i + 1}>
              第 {i + 1} 个分镜 · {SCENE_KIND_LABELS[s.kind]} · {[...s.text].slice(0, 10).join('')}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Switch checked={form.subtitles === 1} label="烧录字幕" onChange={(e) => screen.patch({ subtitles: e.currentTarget.checked ? 1 : 0 })} data-testid="oneclick-subtitles" />
      {form.subtitles === 1 && (
        <FormGroup label="字幕样式" className="tool-group">
          <HTMLSelect fill value={form.subtitle_style} onChange={(e) => screen.patch({ subtitle_style: e.target.value as SubtitlePreset })} data-testid="oneclick-subtitle-style" aria-label="字幕样式">
            {Object.entries(SUBTITLE_PRESETS).map(([value, p]) => (
              <option key={value} value={value}>
                {p.label}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
      <FormGroup label="背景音乐" labelFor="oc-bgm" className="tool-group">
        <HTMLSelect id="oc-bgm" fill value={form.bgm_id} onChange={(e) => screen.patch({ bgm_id: e.target.value })} data-testid="oneclick-bgm">
          <option value="">不加背景音乐</option>
          <RecordOptions items={music} />
        </HTMLSelect>
      </FormGroup>
      {form.bgm_id && (
        <FormGroup label="音乐音量" className="tool-group">
          <Slider min={v.min} max={v.max} stepSize={v.step} labelStepSize={0.25} value={form.bgm_volume} onChange={(bgm_volume) => screen.patch({ bgm_volume })} />
        </FormGroup>
      )}
    </>
  );
}

function Submit({ screen }: { screen: OneclickScreen }) {
  const form = useValue(screen.form$);
  const submitting = useValue(screen.submitting$);
  useStore(screen.channels);
  useStore(screen.voices);
  const estimate = screen.estimate(form);
  return (
    <div className="oc-submit">
      <div className="oc-estimate" data-testid="oneclick-estimate" data-credits={estimate?.credits ?? ''}>
        {estimate ? (
          <>
            约 {Math.round(estimate.seconds)} 秒 · 预计 <b>{estimate.credits}</b> 积分
          </>
        ) : (
          '选择视频通道后显示价格'
        )}
      </div>
      <p className="oc-hint">数字人镜头按通道单价计费，画面镜头按 {LIMITS.oneclick.brollCreditsPerSecond} 积分/秒；按实际时长结算，失败全额退回。</p>
      <Button intent="primary" size="large" fill icon="video" text="生成视频" loading={submitting} onClick={() => void screen.submit()} data-testid="oneclick-submit" />
    </div>
  );
}
