/**
 * /batch, 批量创作: the template, an upload or pasted cells, the preview grid (each row checked as /create checks
 * it, editable in place, with its price and the total), and the batch page once submitted (batch-state.ts).
 */
import { Button, ButtonGroup } from '@blueprintjs/core';
import { PageHeader, useOpenedScreen, useValue, type PanelProps } from '../../../core';
import { BatchStateToken, type BatchState } from '../batch-state';
import { BatchGrid } from './BatchGrid';
import { BatchPage } from './BatchPage';
import './batch.css';

export default function BatchPanel({ query, closed$ }: PanelProps) {
  const screen = useOpenedScreen(BatchStateToken, (state: BatchState) => state.open(Number(query.id) || undefined, closed$));
  const batchId = useValue(screen.batchId$);
  return (
    <div className="bat-page" data-testid="batch-panel">
      <div className="bat-inner">
        <PageHeader icon="th" title="批量创作" subtitle="用一张表格一次创作多条数字人视频：每行一条，和「开始创作」一样校验、计价，排队公平轮流合成。" />
        <ButtonGroup className="bat-tabs">
          <Button text="新建批次" icon="add" active={!batchId} onClick={() => screen.openBatch(null)} data-testid="batch-tab-new" />
          <Button text="批次详情" icon="list-detail-view" active={!!batchId} disabled={!batchId} data-testid="batch-tab-page" />
        </ButtonGroup>
        {batchId ? <BatchPage screen={screen} /> : <BatchGrid screen={screen} />}
      </div>
    </div>
  );
}
