/**
 * The work being put together on /create, shared by its four panes (they are rendered inside the nested dock, within
 * the same React tree, so a context reaches them).
 */
import { createContext, useContext } from 'react';
import type { Avatar, Voice } from '../../../contract';

export interface CreateDraft {
  text: string;
  /** '' = the channel's default language. */
  language: string;
  emotion: string;
  avatar: Avatar | null;
  voice: Voice | null;
}

export const EMPTY_DRAFT: CreateDraft = { text: '', language: '', emotion: 'default', avatar: null, voice: null };

export interface CreateContextValue {
  draft: CreateDraft;
  update: (patch: Partial<CreateDraft>) => void;
  /** The avatar asked for in the address (/create?id=…), to be picked once the lists load. */
  requestedAvatarId: number | null;
  audition: () => void;
  submit: () => void;
}

export const CreateContext = createContext<CreateContextValue | null>(null);

export function useCreate(): CreateContextValue {
  const value = useContext(CreateContext);
  if (!value) throw new Error('useCreate outside the /create panel');
  return value;
}

/** Channels whose engine takes an emotion (MiniMax's set is the spec's: default, happy, sad, …). */
const EMOTION_CHANNELS: readonly string[] = ['mm'];
export const channelHasEmotion = (api: string | undefined) => Boolean(api && EMOTION_CHANNELS.includes(api));
