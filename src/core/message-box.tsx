import type { ReactNode } from 'react';
import { TextArea } from '@blueprintjs/core';
import type { BehaviorSubject } from 'rxjs';
import { useValue } from './screen-hooks';

export interface MessageBoxProps {
  /** The screen's input, which the box shows and writes. */
  input$: BehaviorSubject<string>;
  onSend: () => void;
  placeholder: string;
  maxLength: number;
  disabled?: boolean;
  testId: string;
}

/** The question box of the chat screens: Enter sends, Shift+Enter breaks the line, and an IME's Enter only composes. */
export function MessageBox({ input$, onSend, placeholder, maxLength, disabled, testId }: MessageBoxProps) {
  const input = useValue(input$);
  return (
    <TextArea
      value={input}
      onChange={(e) => input$.next(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
          e.preventDefault();
          onSend();
        }
      }}
      placeholder={placeholder}
      maxLength={maxLength}
      disabled={disabled}
      fill
      autoResize
      data-testid={testId}
    />
  );
}

/** A chat screen's composer (the copy chat, the helper): the question box, then what sends or stops it. */
export function MessageComposer({ className, children, ...box }: MessageBoxProps & { className: string; children: ReactNode }) {
  return (
    <footer className={className}>
      <MessageBox {...box} />
      {children}
    </footer>
  );
}
