/**
 * /store/wsImage, text to image (part 2 §2.8, §4, §5, §9): a description with three suggested prompts, the ratio, an
 * optional reference picture, the count and the price behind a confirm; a preview carousel (2 s) with download and
 * save to material; the history (refreshed every 15 s while open): done records choose/download/delete, failed ones
 * delete only with their reason, others a spinner. Without an image engine the screen says so and cannot generate.
 * The state is the screen's (imagegen-state.ts); these components render it.
 */
import { Callout } from '@blueprintjs/core';
import { LIMITS, MSG } from '../../../contract';
import { GenerationConfirms, PageHeader, useOpenedScreen, useStore, useValue, type PanelProps } from '../../../core';
import { ImageGenStateToken, type ImageGenScreen, type ImageGenState } from '../imagegen-state';
import { cost } from '../imagegen-view';
import { History } from './History';
import { ImageFormCard } from './ImageFormCard';
import { Preview } from './Preview';
import './imagegen.css';

export default function ImageGenPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ImageGenStateToken, (state: ImageGenState) => state.open(closed$));
  const engine = useStore(screen.engine);
  const configured = engine.value?.configured === 1;
  return (
    <div className="ig-page" data-testid="imagegen-panel">
      <div className="ig-inner">
        <PageHeader
          icon="media"
          title="文生图"
          subtitle={`输入一段描述，生成高清创意图片；每张 ${LIMITS.imageCreditsEach} 积分，生成失败的图片退回积分。`}
          className="ig-head"
        />
        {engine.loaded && !configured && (
          <Callout intent="warning" icon="offline" className="ig-missing" data-testid="imagegen-engine-missing">
            {MSG.imageEngineMissing}
          </Callout>
        )}

        <div className="tool-layout ig-layout">
          <ImageFormCard screen={screen} configured={configured} />
          <div className="tool-column">
            <Preview screen={screen} />
            <History screen={screen} />
          </div>
        </div>
      </div>
      <Confirmations screen={screen} />
    </div>
  );
}

function Confirmations({ screen }: { screen: ImageGenScreen }) {
  const { num } = useValue(screen.form$);
  const submitting = useValue(screen.submitting$);
  return (
    <GenerationConfirms
      screen={screen}
      busy={submitting}
      generate={{
        icon: 'media',
        title: `确认生成 ${num} 张图片？`,
        text: <>将消耗 <b>{cost(num)}</b> 积分（每张 {LIMITS.imageCreditsEach} 积分），未生成成功的图片会退回积分。</>,
        confirmText: '确认生成',
        className: 'ig-confirm',
        onConfirm: () => void screen.generate(),
      }}
      remove={{ title: '删除这条生成记录？', text: '记录中的图片会一并删除，已保存到素材库的图片不受影响。' }}
      classPrefix="ig"
    />
  );
}
