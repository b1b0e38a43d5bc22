/**
 * The draft of one /create screen: kept in local storage (it survives closing the tab and reloading, and is dropped
 * after a successful submission), filled from the address (type=fk: the text another screen left; origin=audio:
 * a material-library audio), and whether it holds typed text not yet submitted (the tab asks before closing).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { API, CREATE_TEXT_KEY, LIMITS } from '../../../contract';
import { DraftStore, usePanelHost, type ApiClient, type Storage } from '../../../core';
import { CREATE_DRAFT_KEY, applyPatch, createDraftRules, emptyDraft, hasUnsavedText, parseCreateQuery, type CreateDraft } from './create-logic';
import type { CreateScreen } from './screens';

export function useCreateDraft(api: ApiClient, storage: Storage, screen: CreateScreen, rawQuery: Record<string, string>) {
  const drafts = useMemo(() => new DraftStore(storage, CREATE_DRAFT_KEY + screen.layoutSuffix, createDraftRules), [storage, screen.layoutSuffix]);
  const [draft, setDraft] = useState<CreateDraft>(() => drafts.load() ?? emptyDraft());
  // What was just submitted stays on screen for another variant; it is no longer a draft until it is edited.
  const [submittedDraft, setSubmittedDraft] = useState<CreateDraft | null>(null);
  useEffect(() => {
    if (draft !== submittedDraft) drafts.save(draft);
  }, [drafts, draft, submittedDraft]);
  const host = usePanelHost();
  const unsaved = draft !== submittedDraft && hasUnsavedText(draft);
  useEffect(() => host.setDirty(unsaved), [host, unsaved]);
  // The flows read the draft as it is when they run, not as it was when they were made.
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const update = useCallback((patch: Partial<CreateDraft>) => setDraft((d) => applyPatch(d, patch)), []);
  /** The draft went to the server: it leaves storage and stays on screen until edited. */
  const markSubmitted = useCallback(() => {
    drafts.clear();
    setSubmittedDraft(draftRef.current);
  }, [drafts]);

  // ---- the address: id/hs/source=3 (the avatar pane picks it), origin=audio&audioId, type=fk (over a stored draft)
  const query = useMemo(() => parseCreateQuery(rawQuery), [rawQuery]);
  useEffect(() => {
    if (!query.storedText) return;
    const text = storage.get<unknown>(CREATE_TEXT_KEY, '');
    if (typeof text === 'string' && text) update({ text, mode: 'text' });
  }, [query.storedText, storage, update]);
  useEffect(() => {
    const id = query.audioId;
    if (id === null) return;
    update({ mode: 'audio', audio: { kind: 'material', id, name: '素材库音频', url: '' } });
    const controller = new AbortController();
    api.call(API.material.list, { page: 1, limit: LIMITS.listLimitAll, type: 'audio', source: 0 }, { silent: true, signal: controller.signal }).then(
      ({ list }) => {
        const hit = list.find((m) => m.id === id);
        if (hit) setDraft((d) => (d.audio?.kind === 'material' && d.audio.id === id ? { ...d, audio: { ...d.audio, name: hit.name, url: hit.url, duration: hit.duration } } : d));
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [query.audioId, api, update]);

  return { draft, draftRef, setDraft, update, query, markSubmitted };
}

export type CreateDraftHandle = ReturnType<typeof useCreateDraft>;
