/** /explosiveAnalysis/character: my personas — list, add, edit, delete. */
import { useOpenedScreen, useStore, type PanelProps } from '../../../core';
import { ReplicaStateToken, type ReplicaState } from '../replica-state';
import { PERSONA_FIELDS } from '../replica-view';
import { RecordsPage } from './RecordsParts';
import './replica.css';

export default function PersonasPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(ReplicaStateToken, (state: ReplicaState) => state.openPersonas(closed$));
  const list = useStore(screen.personas).value?.list;
  return (
    <RecordsPage
      screen={screen}
      list={list}
      noun="人设"
      icon="id-number"
      subtitle="仿写和写脚本时，按人设的语气、人群与卖点来写"
      emptyText="建一个人设，仿写出来的文案就是你的口吻。"
      testId="replica-personas"
      cardTestId="replica-persona-card"
      card={(p) => ({ title: p.name, lines: [['行业', p.industry], ['人群', p.audience], ['语气', p.tone], ['卖点', p.selling_points], ['口头禅', p.catchphrases], ['禁用词', p.taboo]] })}
      fields={PERSONA_FIELDS}
    />
  );
}
