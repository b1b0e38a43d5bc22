import { HTMLSelect as BlueprintSelect, type HTMLSelectProps } from '@blueprintjs/core';

/** Blueprint's native select with its caret titled in Chinese (its own says "Open dropdown"). */
export function HTMLSelect(props: HTMLSelectProps) {
  return <BlueprintSelect {...props} iconProps={{ title: '展开选项', ...props.iconProps }} />;
}
