/**
 * The flows of one /create screen on its draft: the video channels (the price, the dialog); the audition (synthesize,
 * poll, keep url + file_id while the draft is unchanged); 合成视频 (throttled, the checks, then the channel dialog);
 * 开始合成 (debounced: the channel's check, the cached audition or a new one in text mode, then the work).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { merge, Subject, type Observable } from 'rxjs';
import { API, LIMITS, MSG, effectOrderTip, type VideoChannel } from '../../../contract';
import { ApiCallError, TIMINGS, leadingGate, speakAudition, type ScreenServices } from '../../../core';
import { CREATE_CHANNEL_KEY, afterRefusal, auditionKey, auditionProblem, auditionRequest, buildSubmission, cachedAudition, channelProblem, preferredChannel, submitProblem, withAudition, type CachedAudition, type CreateDraft } from './create-logic';
import type { CreateDraftHandle } from './use-create-draft';
import type { CreateScreen } from './screens';

export function useCreateSubmission(services: ScreenServices, d: CreateDraftHandle, closed$: Observable<void>, screen: Pick<CreateScreen, 'route' | 'layoutSuffix' | 'pictureType'>) {
  const { api, polling, notifier, auth, storage, navigation } = services;
  const { draft, draftRef, setDraft, update, markSubmitted } = d;
  const channelKey = CREATE_CHANNEL_KEY + screen.layoutSuffix;
  const [auditioning, setAuditioning] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [playToken, setPlayToken] = useState(0);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [channels, setChannels] = useState<{ list: VideoChannel[]; tips: string; loading: boolean }>({ list: [], tips: '', loading: true });
  const gate = useMemo(() => leadingGate(TIMINGS.submitThrottleMs), []);
  const createTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const disposed$ = useMemo(() => new Subject<void>(), []);
  useEffect(() => () => {
    disposed$.next();
    clearTimeout(createTimer.current);
  }, [disposed$]);

  // 提交成功 belongs to this screen: moving elsewhere (the address, the back button, a link) closes it.
  useEffect(() => {
    const sub = navigation.location$.subscribe((l) => l.path !== screen.route && setSubmitted(false));
    return () => sub.unsubscribe();
  }, [navigation, screen.route]);

  useEffect(() => {
    const controller = new AbortController();
    api.call(API.works.videoChannel, {}, { silent: true, signal: controller.signal }).then(
      (r) => {
        // A picture talks only on the channels that render pictures (the server refuses the others).
        const list = screen.pictureType ? r.list.filter((c) => c.pictures) : r.list;
        setChannels({ list, tips: screen.pictureType ? effectOrderTip(list) : r.tips, loading: false });
      },
      () => !controller.signal.aborted && setChannels((c) => ({ ...c, loading: false })),
    );
    return () => controller.abort();
  }, [api, screen.pictureType]);

  const synthesize = useCallback(
    async (draft: CreateDraft): Promise<CachedAudition | null> => {
      const key = auditionKey(draft);
      const job = await speakAudition(api, polling, auditionRequest(draft), merge(closed$, disposed$));
      if (!job) {
        notifier.error(MSG.auditionFailed);
        return null;
      }
      const audition = { key, url: job.url, file_id: job.file_id };
      setDraft((cur) => withAudition(cur, audition));
      return audition;
    },
    [api, polling, notifier, closed$, disposed$, setDraft],
  );

  const audition = useCallback(() => {
    const draft = draftRef.current;
    const problem = auditionProblem(draft);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    if (cachedAudition(draft)) {
      setPlayToken((n) => n + 1);
      return;
    }
    if (auditioning) return;
    setAuditioning(true);
    synthesize(draft)
      .then((a) => {
        if (a && auditionKey(draftRef.current) === a.key) setPlayToken((n) => n + 1);
      })
      .catch(() => undefined)
      .finally(() => setAuditioning(false));
  }, [notifier, synthesize, auditioning, draftRef]);

  const submit = useCallback(() => {
    if (!gate()) return;
    const problem = submitProblem(draftRef.current);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setDialogOpen(true);
  }, [gate, notifier, draftRef]);

  const createNow = useCallback(
    async (channelApi: string) => {
      const draft = draftRef.current;
      const problem = submitProblem(draft) ?? channelProblem(channelApi, draft.avatar);
      if (problem) {
        notifier.warn(problem);
        return;
      }
      update({ channel: channelApi });
      storage.set(channelKey, channelApi);
      setSubmitting(true);
      try {
        let fileId: number | undefined;
        if (draft.mode === 'text') {
          const speech = cachedAudition(draft) ?? (await synthesize(draft));
          if (!speech) return;
          fileId = speech.file_id;
        }
        await api.call(API.works.create, buildSubmission(draft, channelApi, fileId));
        setDialogOpen(false);
        markSubmitted();
        setSubmitted(true);
        void auth.refreshProfile().catch(() => undefined);
      } catch (err) {
        // The server's words were shown; the cache, the pending audio and the text are cleared (part 2 §4).
        if (!(err instanceof ApiCallError && err.code === 100)) setDraft(afterRefusal);
      } finally {
        setSubmitting(false);
      }
    },
    [api, auth, notifier, synthesize, update, markSubmitted, draftRef, setDraft, storage, channelKey],
  );
  /** 开始合成 is debounced 500 ms: the last click of a burst counts. */
  const create = useCallback(
    (channelApi: string) => {
      clearTimeout(createTimer.current);
      createTimer.current = setTimeout(() => void createNow(channelApi), LIMITS.createDebounceMs);
    },
    [createNow],
  );

  // The draft's choice, else the last one submitted on this screen, else the best offered.
  const channel = preferredChannel(channels.list, draft.channel || storage.get(channelKey, ''));
  return {
    channels, channel, audition, auditioning, playToken, submit, submitting, create,
    dialogOpen, closeDialog: () => setDialogOpen(false), submitted, closeSubmitted: () => setSubmitted(false),
  };
}
