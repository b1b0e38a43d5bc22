import { SegmentedControl } from '@blueprintjs/core';

export interface SegmentsProps {
  value: string;
  /** [value, label] pairs, in the order shown. */
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
  testId: string;
  className?: string;
  /** Stretch to the width of the container. */
  fill?: boolean;
}

/** The small segmented choice the creation screens use everywhere (source, orientation, drive and output modes, a dub's mode). */
export function Segments({ value, options, onChange, testId, className, fill }: SegmentsProps) {
  return (
    <SegmentedControl
      fill={fill}
      size="small"
      className={className}
      value={value}
      onValueChange={onChange}
      options={options.map(([v, label]) => ({ value: v, label }))}
      data-testid={testId}
    />
  );
}
