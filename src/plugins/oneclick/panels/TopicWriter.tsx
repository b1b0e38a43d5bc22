/** 生成文案 on /cozeVideo: a topic, platform, style and length, written into the script by the chat engine (when the site has one). */
import { Button, Callout, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG, SCRIPT_PLATFORMS, TOPIC_SECONDS, TOPIC_STYLES, type ScriptPlatform, type TopicStyle } from '../../../contract';
import { useStore, useValue } from '../../../core';
import type { OneclickScreen } from '../oneclick-state';

export function TopicWriter({ screen }: { screen: OneclickScreen }) {
  const { assist } = screen;
  const topic = useValue(assist.topic$);
  const writing = useValue(assist.writing$);
  const engines = useStore(assist.engines).value;
  if (engines && !engines.chat) {
    return (
      <Callout intent="primary" icon="lightbulb" className="oc-note" data-testid="oneclick-topic-note">
        {MSG.oneclickChatMissing}（第一句最好是抓人的开场）。
      </Callout>
    );
  }
  return (
    <div className="oc-topic" data-testid="oneclick-topic">
      <FormGroup label="按主题写文案" labelFor="oc-topic" className="oc-group" helperText={`至少 ${LIMITS.oneclick.topicMinChars} 个字；第一句会是抓人的开场。每次 ${engines?.chat_credits ?? LIMITS.chatAnswerCredits} 积分，失败退回`}>
        <InputGroup id="oc-topic" value={topic.topic} maxLength={LIMITS.oneclick.topicMaxChars} placeholder="例如：上班族五分钟早餐怎么做" onValueChange={(v) => assist.patchTopic({ topic: v })} data-testid="oneclick-topic-input" />
      </FormGroup>
      <div className="oc-topic-row">
        <HTMLSelect value={topic.platform} onChange={(e) => assist.patchTopic({ platform: e.target.value as ScriptPlatform })} aria-label="平台" data-testid="oneclick-topic-platform">
          {SCRIPT_PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={topic.style} onChange={(e) => assist.patchTopic({ style: e.target.value as TopicStyle })} aria-label="风格" data-testid="oneclick-topic-style">
          {TOPIC_STYLES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect value={topic.seconds} onChange={(e) => assist.patchTopic({ seconds: Number(e.target.value) as 30 | 60 | 90 })} aria-label="时长" data-testid="oneclick-topic-seconds">
          {TOPIC_SECONDS.map((s) => (
            <option key={s} value={s}>
              {s} 秒
            </option>
          ))}
        </HTMLSelect>
        <Button intent="primary" icon="edit" text="生成文案" loading={writing} disabled={!engines} onClick={() => void assist.writeScript()} data-testid="oneclick-topic-write" />
      </div>
    </div>
  );
}
