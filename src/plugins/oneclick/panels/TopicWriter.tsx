/** 生成文案 on /cozeVideo: a topic, platform, style and length, written into the script by the chat engine (when the site has one). */
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG, SCRIPT_PLATFORMS, TOPIC_SECONDS, TOPIC_STYLES } from '../../../contract';
import { HTMLSelect, useStore, useValue } from '../../../core';
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
      <FormGroup label="按主题写文案" labelFor="oc-topic" className="tool-group" helperText={`至少 ${LIMITS.oneclick.topicMinChars} 个字；第一句会是抓人的开场。每次 ${engines?.chat_credits ?? LIMITS.chatAnswerCredits} 积分，失败退回`}>
        <InputGroup id="oc-topic" value={topic.topic} maxLength={LIMITS.oneclick.topicMaxChars} placeholder="例如：上班族五分钟早餐怎么做" onValueChange={(v) => assist.patchTopic({ topic: v })} data-testid="oneclick-topic-input" />
      </FormGroup>
      <div className="oc-topic-row">
        <Choice label="平台" values={SCRIPT_PLATFORMS} value={topic.platform} onChange={(platform) => assist.patchTopic({ platform })} testId="oneclick-topic-platform" />
        <Choice label="风格" values={TOPIC_STYLES} value={topic.style} onChange={(style) => assist.patchTopic({ style })} testId="oneclick-topic-style" />
        <Choice label="时长" values={TOPIC_SECONDS} value={topic.seconds} unit=" 秒" onChange={(seconds) => assist.patchTopic({ seconds })} testId="oneclick-topic-seconds" />
        <Button intent="primary" icon="edit" text="生成文案" loading={writing} disabled={!engines} onClick={() => void assist.writeScript()} data-testid="oneclick-topic-write" />
      </div>
    </div>
  );
}

/** One of a few fixed values (the option's value is its text; numbers are read back as numbers). */
function Choice<T extends string | number>(p: { label: string; values: readonly T[]; value: T; unit?: string; onChange: (v: T) => void; testId: string }) {
  return (
    <HTMLSelect value={p.value} onChange={(e) => p.onChange(p.values.find((v) => String(v) === e.target.value)!)} aria-label={p.label} data-testid={p.testId}>
      {p.values.map((v) => (
        <option key={v} value={v}>
          {v}
          {p.unit ?? ''}
        </option>
      ))}
    </HTMLSelect>
  );
}
