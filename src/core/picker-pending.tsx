import type { ReactElement } from 'react';
import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import './pickers.css';

/** A picker's list before it can show rows: a spinner on the first load, the error with a retry; else null. */
export function pickerPending(remote: { loading: boolean; value: unknown; error: string | null | undefined; reload(): void }): ReactElement | null {
  if (remote.loading && !remote.value) {
    return (
      <div className="mu-center">
        <Spinner size={24} />
      </div>
    );
  }
  if (remote.error) {
    return <NonIdealState icon="error" description={remote.error} action={<Button text="重新加载" icon="refresh" onClick={remote.reload} />} className="mu-empty" />;
  }
  return null;
}
