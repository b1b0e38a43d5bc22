import { NonIdealState } from '@blueprintjs/core';
import { MSG } from '../contract';

/** What a route shows while its feature is not built: a plain statement, never made-up content. */
export function ComingSoon({ title, description }: { title: string; description?: string }) {
  return (
    <div className="panel-center" data-testid="coming-soon">
      <NonIdealState
        icon="time"
        title={`${title} · ${MSG.comingSoonPanel}`}
        description={description ?? '该功能正在开发中，上线后会出现在这里。'}
      />
    </div>
  );
}
