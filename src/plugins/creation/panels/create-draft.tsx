/**
 * The work being put together on /create, shared by its four panes (they are rendered inside the nested dock, within
 * the same React tree, so a context reaches them). The draft and its rules are in create-logic.ts.
 */
import { createContext, useContext } from 'react';
import type { VideoChannel } from '../../../contract';
import type { CreateDraft, CreateQuery } from './create-logic';
import type { CreateScreen } from './screens';

export type { CreateDraft } from './create-logic';
export { channelHasEmotion } from './create-logic';

export interface CreateContextValue {
  draft: CreateDraft;
  update: (patch: Partial<CreateDraft>) => void;
  /** What the address asks for (/create?id=&hs=&source=3&origin=audio&audioId=&type=fk). */
  query: CreateQuery;
  audition: () => void;
  /** An audition is being synthesized. */
  auditioning: boolean;
  /** Bumped when the cached audition should play (the preview pane plays it). */
  playToken: number;
  /** 合成视频: checks, then the channel dialog. */
  submit: () => void;
  /** Synthesizing and submitting. */
  submitting: boolean;
  channels: VideoChannel[];
  /** The channel in use: the one chosen, else the best offered (create-logic's preferredChannel). */
  channel: VideoChannel | undefined;
  /** Which screen this is (/create, /pet/establish, /store/characters). */
  screen: CreateScreen;
  /** The estimated length in seconds (create-logic's draftSeconds). */
  seconds: number;
}

export const CreateContext = createContext<CreateContextValue | null>(null);

export function useCreate(): CreateContextValue {
  const value = useContext(CreateContext);
  if (!value) throw new Error('useCreate outside the /create panel');
  return value;
}
