import 'reflect-metadata';
import { act } from 'react';
import { Container } from 'inversify';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, LIMITS, MSG, type CallDef } from '../../contract';
import { ApiCallError } from '../api-client';
import { ContainerProvider } from '../react';
import { TOKENS, type ApiClient } from '../tokens';
import { ScriptEditorState, aiEngineMissing } from './editor-state';
import { AiWritingDialog, sampleTopic } from './ai-writing-dialog';
import { reactHost, expectAnswers } from '../../../tests/support/react-host';
import { recordingNotifier } from '../../../tests/support/notes';

describe('the text engine is missing', () => {
  it('is read from the engine messages that need the operator, not from passing problems', () => {
    expectAnswers(aiEngineMissing, [
      [MSG.comingSoon, true],
      [MSG.chatEngineMissing, true],
      [MSG.chatEngineAuthFailed, true],
      [MSG.chatEngineBusy, false],
      [MSG.chatEngineTimeout, false],
      [MSG.insufficientCredits, false],
      [MSG.networkError, false],
    ]);
    const state = new ScriptEditorState();
    state.noteAiFailure(MSG.networkError);
    expect(state.aiUnavailable$.value).toBeNull();
    state.noteAiFailure(MSG.comingSoon);
    expect(state.aiUnavailable$.value).toBe(MSG.comingSoon);
  });
});

describe('AiWritingDialog', () => {
  const view = reactHost();
  const { notes, notifier } = recordingNotifier();
  let calls: { id: string; params: unknown }[];
  let themeReply: () => Promise<unknown>;
  let state: ScriptEditorState;

  const api = {
    call: (call: CallDef, params: unknown) => {
      calls.push({ id: call.id, params });
      if (call.id === API.writing.theme.id) return themeReply();
      if (call.id === API.writing.aiWriting.id) return Promise.resolve({ content: '写好的文案<#0.5#>结尾' });
      return Promise.reject(new Error(`unexpected ${call.id}`));
    },
  } as unknown as ApiClient;

  beforeEach(() => {
    calls = [];
    state = new ScriptEditorState();
    themeReply = () => Promise.resolve({ list: [{ name: '美食探店', list: [{ name: '火锅店开业' }, { name: '甜品推荐' }] }, { name: '知识分享', list: [] }] });
  });

  async function open(props: { onWritten?: (c: string) => boolean } = {}) {
    const container = new Container();
    container.bind(TOKENS.Notifier).toConstantValue(notifier);
    container.bind(TOKENS.ApiClient).toConstantValue(api);
    container.bind(TOKENS.ScriptEditorState).toConstantValue(state);
    const onWritten = vi.fn(props.onWritten ?? (() => true));
    const onClose = vi.fn();
    const onFailure = vi.fn();
    await act(async () => {
      view.root.render(
        <ContainerProvider container={container}>
          <AiWritingDialog isOpen onClose={onClose} hasText={false} onWritten={onWritten} onFailure={onFailure} />
        </ContainerProvider>,
      );
      await new Promise((r) => setTimeout(r, 0));
    });
    return { onWritten, onClose, onFailure };
  }

  const q = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector);
  const click = async (el: Element | null) => {
    await act(async () => {
      (el as HTMLElement).click();
      await new Promise((r) => setTimeout(r, 0));
    });
  };
  const byText = (text: string) => [...document.querySelectorAll('.bp6-dialog .bp6-tag, .bp6-dialog button')].find((el) => el.textContent?.trim() === text) ?? null;

  it('asks for a description, then writes with the chosen length', async () => {
    const { onWritten, onClose } = await open();
    expect(calls.map((c) => c.id)).toEqual([API.writing.theme.id]);
    await click(q('[data-testid=ai-start]'));
    expect(notes).toEqual([{ kind: 'warn', message: MSG.topicRequired }]);
    expect(calls).toHaveLength(1);

    // A topic of the theme fills the description; the sample replaces it with a fuller one about the topic.
    await click(byText('火锅店开业'));
    expect(q<HTMLTextAreaElement>('[data-testid=ai-keyword]')!.value).toBe('火锅店开业');
    await click(q('[data-testid=ai-sample]'));
    expect(q<HTMLTextAreaElement>('[data-testid=ai-keyword]')!.value).toBe(sampleTopic('美食探店', '火锅店开业'));
    expect(q<HTMLTextAreaElement>('[data-testid=ai-keyword]')!.maxLength).toBe(LIMITS.topicMaxChars);

    await click(byText(LIMITS.writingLengths[2].label));
    await click(q('[data-testid=ai-start]'));
    expect(calls[1]).toEqual({ id: API.writing.aiWriting.id, params: { keyword: sampleTopic('美食探店', '火锅店开业'), length: 300 } });
    expect(onWritten).toHaveBeenCalledWith('写好的文案<#0.5#>结尾');
    expect(onClose).toHaveBeenCalled();
  });

  it('says plainly when the server has no text engine, and does not offer to start', async () => {
    themeReply = () => Promise.reject(new ApiCallError(MSG.chatEngineMissing, 1));
    await open();
    expect(q('[data-testid=ai-writing-notice]')?.textContent).toBe(MSG.chatEngineMissing);
    expect(state.aiUnavailable$.value).toBe(MSG.chatEngineMissing);
    expect(q<HTMLButtonElement>('[data-testid=ai-start]')!.disabled).toBe(true);
  });
});
