/** A text area that shows how many of its characters are used, as the generation forms' descriptions and lyrics. */
import type { Ref } from 'react';
import { FormGroup, TextArea } from '@blueprintjs/core';
import './counted-text.css';

export interface CountedTextAreaProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows: number;
  placeholder: string;
  testId: string;
  inputRef?: Ref<HTMLTextAreaElement>;
}

/** Counts characters as people see them (an emoji is one), as the limits do. */
export function CountedTextArea({ id, value, onChange, maxLength, rows, placeholder, testId, inputRef }: CountedTextAreaProps) {
  return (
    <div className="counted-text">
      <TextArea
        id={id}
        inputRef={inputRef}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={maxLength}
        rows={rows}
        fill
        placeholder={placeholder}
        data-testid={testId}
      />
      <span className="counted-text-counter">
        {[...value].length}/{maxLength}
      </span>
    </div>
  );
}

/** A labelled counted text area: the form group of a generation form's description. */
export function CountedField({ label, className, ...area }: CountedTextAreaProps & { label: string; className: string }) {
  return (
    <FormGroup label={label} labelFor={area.id} className={className}>
      <CountedTextArea {...area} />
    </FormGroup>
  );
}
