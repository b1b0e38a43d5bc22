/** /explosiveAnalysis/character: my personas — list, add, edit, delete. */
import { Button, NonIdealState } from '@blueprintjs/core';
import { ConfirmDelete, PageHeader, useDeletionFlow, useScreen, useService, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type ReplicaState } from '../replica-state';
import { INDEX_ROUTE, PERSONA_FIELDS } from '../replica-view';
import { RecordCard, RecordForm } from './RecordsParts';
import './replica.css';

export default function PersonasPanel({ closed$ }: PanelProps) {
  const state = useService<ReplicaState>(ReplicaStateToken);
  const screen = useScreen(() => state.openPersonas(closed$));
  const list = useStore(screen.personas).value?.list;
  const form = useValue(screen.form$);
  const saving = useValue(screen.saving$);
  const deletion = useDeletionFlow(screen.deletion);
  return (
    <div className="rp-page" data-testid="replica-personas">
      <div className="rp-inner">
        <PageHeader icon="id-number" title="我的人设" subtitle="仿写和写脚本时，按人设的语气、人群与卖点来写">
          <div className="rp-head-tags">
            <a className="rp-link" href={`#${INDEX_ROUTE}`}>超级复刻首页</a>
            <Button intent="primary" icon="plus" text="新建人设" onClick={() => screen.add()} data-testid="replica-add" />
          </div>
        </PageHeader>
        {list && !list.length && <NonIdealState icon="id-number" title="还没有人设" description="建一个人设，仿写出来的文案就是你的口吻。" />}
        <ul className="rp-grid">
          {list?.map((p) => (
            <RecordCard
              key={p.id}
              testId="replica-persona-card"
              title={p.name}
              lines={[['行业', p.industry], ['人群', p.audience], ['语气', p.tone], ['卖点', p.selling_points], ['口头禅', p.catchphrases], ['禁用词', p.taboo]]}
              onEdit={() => screen.edit(p)}
              onDelete={() => deletion.ask(p)}
            />
          ))}
        </ul>
      </div>
      <RecordForm
        title={form?.id ? '编辑人设' : '新建人设'}
        isOpen={!!form}
        fields={PERSONA_FIELDS}
        value={form?.value}
        onChange={(patch) => screen.change(patch)}
        onSave={() => void screen.save()}
        onClose={() => screen.close()}
        saving={saving}
      />
      <ConfirmDelete deletion={deletion} title="删除人设" text={`确定删除「${deletion.target?.name ?? ''}」吗？`} classPrefix="rp" />
    </div>
  );
}
