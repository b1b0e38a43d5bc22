/** Pieces the list pages share: a name search with a clear button, and the loading and load-failed states. */
import type { ReactElement } from 'react';
import { Button, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';

export interface SearchBoxProps {
  className: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  testId: string;
}

export function SearchBox({ className, placeholder, value, onChange, testId }: SearchBoxProps) {
  return (
    <InputGroup
      className={className}
      leftIcon="search"
      placeholder={placeholder}
      value={value}
      onValueChange={onChange}
      rightElement={value ? <Button variant="minimal" icon="cross" aria-label="清除" onClick={() => onChange('')} /> : undefined}
      data-testid={testId}
    />
  );
}

/**
 * Before the first page arrives: a spinner, or the error with a way to try again; null once there is a list to show.
 * `center` is the class of the box they are centred in (a card list's by default, or a table's own).
 */
export function listPending(list: { loaded: boolean; loading: boolean; error: string | null | undefined; reload(): void }, center = 'card-center'): ReactElement | null {
  if (!list.loaded && list.loading) {
    return (
      <div className={center}>
        <Spinner size={28} />
      </div>
    );
  }
  if (list.error && !list.loaded) {
    return (
      <div className={center}>
        <NonIdealState icon="error" title="加载失败" description={list.error} action={<Button icon="refresh" text="重新加载" onClick={list.reload} />} />
      </div>
    );
  }
  return null;
}
