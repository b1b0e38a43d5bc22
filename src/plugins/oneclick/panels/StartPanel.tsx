/**
 * /cozeVideo: a topic written into a script by the chat engine (生成文案; without one the screen says so), or a pasted
 * script; pick the avatar, voice, channel and aspect, and 生成分镜 opens the proposed storyboard as a saved project.
 */
import { useEffect } from 'react';
import { Button, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { LIMITS, countChars } from '../../../contract';
import { PageHeader, useOpenedScreen, useValue, type PanelProps } from '../../../core';
import { OneclickStateToken, type OneclickState } from '../oneclick-state';
import { HISTORY_ROUTE } from '../oneclick-view';
import { ProjectSettings } from './ProjectSettings';
import { TopicWriter } from './TopicWriter';
import './oneclick.css';

export default function StartPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(OneclickStateToken, (state: OneclickState) => state.open(closed$));
  const form = useValue(screen.form$);
  useEffect(() => screen.takeHandOff(), [screen]);
  const chars = countChars(form.script);
  return (
    <div className="oc-page" data-testid="oneclick-start">
      <div className="oc-inner">
        <PageHeader icon="film" title="一键成片" subtitle="输入主题自动写文案或粘贴文案，自动拆成分镜：数字人口播与画面镜头交替，配上字幕和背景音乐，一次生成完整短视频。">
          <a className="oc-link" href={`#${HISTORY_ROUTE}`} data-testid="oneclick-history-link">
            历史项目
          </a>
        </PageHeader>
        <div className="tool-layout oc-layout">
          <div className="tool-card">
            <TopicWriter screen={screen} />
            <FormGroup label="项目名称" labelFor="oc-name" className="tool-group">
              <InputGroup id="oc-name" value={form.name} maxLength={LIMITS.nameMaxChars} placeholder="未命名" onValueChange={(name) => screen.patch({ name })} data-testid="oneclick-name" />
            </FormGroup>
            <FormGroup label="文案" labelFor="oc-script" className="tool-group" helperText={`${chars} / ${LIMITS.oneclick.maxChars} 字，按句子自动拆成 3–8 秒的分镜`}>
              <TextArea id="oc-script" fill rows={10} value={form.script} onChange={(e) => screen.patch({ script: e.target.value })} placeholder="粘贴你的口播文案，或用上面的主题生成……" data-testid="oneclick-script" />
            </FormGroup>
          </div>
          <div className="tool-card">
            <ProjectSettings screen={screen} />
            <Button intent="primary" size="large" fill icon="layout-grid" text="生成分镜" className="oc-main" onClick={() => void screen.propose()} data-testid="oneclick-propose" />
          </div>
        </div>
      </div>
    </div>
  );
}
