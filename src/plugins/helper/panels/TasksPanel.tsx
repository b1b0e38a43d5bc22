import { NonIdealState } from '@blueprintjs/core';
import { useOpenedScreen, useStore, type PanelProps } from '../../../core';
import { HelperStateToken, type HelperScreen, type HelperState } from '../helper-state';
import { HelperChat } from './HelperChat';
import { PlanCard } from './PlanCard';

/** /helper/asyncOperation: long requests become background tasks; their list (polled while one runs) survives reload. */
export default function TasksPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(HelperStateToken, (state: HelperState) => state.screen('tasks', closed$));
  return (
    <HelperChat screen={screen}>
      <Tasks screen={screen} />
    </HelperChat>
  );
}

function Tasks({ screen }: { screen: HelperScreen }) {
  const tasks = useStore(screen.tasks!);
  const list = tasks.value ?? [];
  return (
    <section className="helper-tasks" data-testid="helper-tasks">
      <h3>我的后台任务</h3>
      {tasks.loaded && list.length === 0 && <NonIdealState icon="list" title="还没有后台任务" description="在下方说出要批量做的事，确认后在这里查看每一项的进度。" />}
      {list.map((plan) => (
        <div key={plan.id} className="helper-task" data-testid="helper-task">
          <div className="helper-task-request">{plan.request}</div>
          <PlanCard screen={screen} plan={plan} />
        </div>
      ))}
    </section>
  );
}
