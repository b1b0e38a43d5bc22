import { Button, TextArea } from '@blueprintjs/core';
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

/** A composer's send button: its words and test id, whether the screen holds sending back, and whether a send is under way. */
export interface SendButton {
  text: string;
  testId: string;
  /** Besides a disabled or empty box: the screen is not ready for another question (an answer still coming). */
  held?: boolean;
  sending?: boolean;
}

/**
 * A chat screen's composer (the copy chat, the helper): the question box, then its send button, which never sends an
 * empty question; while `onStop` is given (an answer streams that the screen can stop), a stop button instead.
 */
export function MessageComposer({ className, send, onStop, ...box }: MessageBoxProps & { className: string; send: SendButton; onStop?: () => void }) {
  const input = useValue(box.input$);
  return (
    <footer className={className}>
      <MessageBox {...box} />
      {onStop ? (
        <Button icon="stop" text="停止" onClick={onStop} />
      ) : (
        <Button
          intent="primary"
          icon="send-message"
          text={send.text}
          onClick={box.onSend}
          disabled={box.disabled || send.held || !input.trim()}
          loading={send.sending}
          data-testid={send.testId}
        />
      )}
    </footer>
  );
}
