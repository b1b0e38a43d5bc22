import { Button, NonIdealState, Spinner, type IconName } from '@blueprintjs/core';
import { pagingView, type PagingState } from '../paging';

/** What follows a list: loading row, failure with retry, finished empty state, or the 没有更多了 end row. */
export function ListStatus({
  state,
  empty,
  onRetryFirst,
  onRetryMore,
}: {
  state: PagingState<unknown>;
  empty: { icon: IconName; title: string; description: string };
  onRetryFirst: () => void;
  onRetryMore: () => void;
}) {
  switch (pagingView(state)) {
    case 'loading-first':
      return (
        <div className="home-list-state" data-testid="list-loading">
          <Spinner size={28} />
        </div>
      );
    case 'failed':
      return (
        <div className="home-list-state" data-testid="list-failed">
          <NonIdealState icon="error" title="加载失败" description={state.error ?? ''} action={<Button icon="refresh" text="重新加载" onClick={onRetryFirst} />} />
        </div>
      );
    case 'empty':
      return (
        <div className="home-list-state" data-testid="list-empty">
          <NonIdealState icon={empty.icon} title={empty.title} description={empty.description} />
        </div>
      );
    case 'loading-more':
      return (
        <div className="home-list-row" data-testid="list-loading-more">
          <Spinner size={16} />
          <span>加载中…</span>
        </div>
      );
    case 'more-failed':
      return (
        <div className="home-list-row" data-testid="list-more-failed">
          <span>加载失败：{state.error}</span>
          <Button variant="minimal" size="small" intent="primary" text="重试" onClick={onRetryMore} />
        </div>
      );
    case 'end':
      return (
        <div className="home-list-row home-list-end" data-testid="list-end">
          没有更多了
        </div>
      );
    case 'idle':
      return <div className="home-list-row" aria-hidden />;
  }
}
