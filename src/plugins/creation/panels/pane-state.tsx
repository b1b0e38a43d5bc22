import type { ReactElement } from 'react';
import { NonIdealState, Spinner } from '@blueprintjs/core';

/**
 * What a /create pane shows in place of its cards: a spinner while its first list loads, the failure, or `empty` when
 * there is nothing to pick (none given: the pane says that itself); null once there are cards to show.
 */
export function paneState(list: { loading: boolean; error?: string | null; count: number }, empty?: ReactElement): ReactElement | null {
  if (list.loading && list.count === 0) {
    return (
      <div className="cr-center">
        <Spinner size={20} />
      </div>
    );
  }
  if (list.error) return <NonIdealState icon="error" description={list.error} className="cr-empty" />;
  if (empty && list.count === 0) return empty;
  return null;
}
