import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, SegmentedControl, Tab, Tabs } from '@blueprintjs/core';
import { API, type Avatar, type Voice } from '../../../contract';
import { TOKENS, VideoPlayer, useAudioPlayer, useObservable, useService, useScreenServices, type PanelProps, type SiteService } from '../../../core';
import { HomeStateToken, type HomeState, type HomeTab, type Orientation } from '../home-state';
import { isNearBottom, isPristine, throttle } from '../paging';
import { usePaging, type Paging } from './use-paging';
import { HomeBanner } from './HomeBanner';
import { HomeFooter } from './HomeFooter';
import { AvatarGrid } from './AvatarGrid';
import { VoiceGrid } from './VoiceGrid';
import { ListStatus } from './ListStatus';
import './home.css';

const ORIENTATION_OPTIONS = [
  { value: '2', label: '竖屏', icon: 'mobile-phone' as const },
  { value: '1', label: '横屏', icon: 'desktop' as const },
];

/** /home (part 1 §2 Home, §4): banner, public avatars (portrait/landscape) and public voices, paged; footer. */
export default function HomePanel({ closed$ }: PanelProps) {
  const { api, navigation, notifier } = useScreenServices();
  const siteService = useService<SiteService>(TOKENS.SiteService);
  const home = useService<HomeState>(HomeStateToken);
  const site = useObservable(siteService.site$, null);
  const tab = useObservable(home.tab$, home.tab$.value);
  const orientation = useObservable(home.orientation$, home.orientation$.value);

  const fetchAvatars = useCallback(
    (which: Orientation) => async (page: number, limit: number, signal: AbortSignal) => {
      const reply = await api.call(API.avatars.publicList, { source: 2, page, limit }, { silent: true, signal });
      return which === 1 ? reply.hlist : reply.slist;
    },
    [api],
  );
  const landscape = usePaging<Avatar>(useMemo(() => fetchAvatars(1), [fetchAvatars]), (a) => a.id);
  const portrait = usePaging<Avatar>(useMemo(() => fetchAvatars(2), [fetchAvatars]), (a) => a.id);
  const voices = usePaging<Voice>(
    useCallback(async (page: number, limit: number, signal: AbortSignal) => (await api.call(API.voices.list, { source: 2, page, limit }, { silent: true, signal })).list, [api]),
    (v) => v.id,
  );
  const active: Paging<Avatar> | Paging<Voice> = tab === 2 ? voices : orientation === 1 ? landscape : portrait;

  // A list loads when first shown.
  useEffect(() => {
    if (isPristine(active.state)) active.dispatch({ type: 'start' });
  }, [active]);

  const player = useAudioPlayer((message) => notifier.error(message));
  const playingId = player.state.playing && player.state.key !== null ? Number(player.state.key) : null;
  useEffect(() => {
    if (tab !== 2) player.stop();
  }, [tab, player.stop]);
  useEffect(() => {
    const sub = closed$.subscribe(() => player.stop());
    return () => sub.unsubscribe();
  }, [closed$, player.stop]);

  // Scrolling within 100 px of the bottom asks for the next page (throttled 100 ms). After a page arrives the same
  // check runs once more, so a tall screen that shows the whole page at once still gets the next one.
  const scroller = useRef<HTMLDivElement>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  const checkBottom = useMemo(
    () =>
      throttle(() => {
        const el = scroller.current;
        const { state, dispatch } = activeRef.current;
        if (el && state.loaded && !state.loading && !state.noMore && isNearBottom(el)) dispatch({ type: 'more' });
      }),
    [],
  );
  useEffect(() => () => checkBottom.cancel(), [checkBottom]);
  // Another tab of the dock in front of this one hides the panel: the sample stops with it.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry && !entry.isIntersecting) player.stop();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [player.stop]);
  const { loaded, loading, error } = active.state;
  useEffect(() => {
    if (loaded && !loading && !error) checkBottom();
  }, [loaded, loading, error, active.state.items.length, checkBottom]);

  const [video, setVideo] = useState<Avatar | null>(null);
  const createWith = (avatar: Avatar) => {
    setVideo(null);
    navigation.navigate('/create', { id: avatar.id, hs: orientation });
  };

  // Switching lists keeps the tabs in view: a panel scrolled past them comes back to the top of the list
  // (measured at a marker just above the sticky bar, whose own offset moves while it sticks).
  const listTop = useRef<HTMLDivElement>(null);
  const backToList = () => {
    const el = scroller.current;
    const bar = listTop.current;
    if (el && bar && el.scrollTop > bar.offsetTop) el.scrollTo({ top: bar.offsetTop });
  };
  const selectTab = (id: HomeTab) => {
    home.setTab(id);
    backToList();
  };

  return (
    <div className="home-panel" ref={scroller} onScroll={() => checkBottom()} data-testid="home-panel">
      <div className="home-inner">
        <HomeBanner site={site} onCreate={() => navigation.navigate('/create')} onCustomize={() => navigation.navigate('/profile')} />

        <div ref={listTop} aria-hidden />
        <div className="home-toolbar">
          <Tabs id="home-tabs" selectedTabId={tab} onChange={(id) => selectTab(Number(id) === 2 ? 2 : 1)} size="large" className="home-tabs">
            <Tab id={1} title="公共数字人" data-testid="tab-avatars" />
            <Tab id={2} title="公共声音" data-testid="tab-voices" />
          </Tabs>
          {tab === 1 && (
            <SegmentedControl
              className="home-orientation"
              options={ORIENTATION_OPTIONS}
              value={String(orientation)}
              onValueChange={(value) => {
                home.setOrientation(value === '1' ? 1 : 2);
                backToList();
              }}
              size="small"
              data-testid="orientation"
            />
          )}
        </div>

        <div className="home-list" data-testid={tab === 1 ? 'avatar-list' : 'voice-list'}>
          {tab === 1 ? (
            <AvatarGrid avatars={(active as Paging<Avatar>).state.items} orientation={orientation} onPlay={setVideo} onCreate={createWith} />
          ) : (
            <VoiceGrid voices={voices.state.items} playingId={playingId} onToggle={(voice) => (playingId === voice.id ? player.stop() : player.play(String(voice.id), voice.url))} />
          )}
          <ListStatus
            state={active.state}
            empty={
              tab === 1
                ? { icon: 'people', title: orientation === 1 ? '暂无横屏公共数字人' : '暂无竖屏公共数字人', description: '平台上架公共数字人后会显示在这里。' }
                : { icon: 'volume-off', title: '暂无公共声音', description: '平台上架公共声音后会显示在这里。' }
            }
            onRetryFirst={() => active.dispatch({ type: 'start' })}
            onRetryMore={() => active.dispatch({ type: 'more' })}
          />
        </div>

        <HomeFooter site={site} />
      </div>

      <Dialog isOpen={video !== null} onClose={() => setVideo(null)} title={video?.name ?? ''} icon="play" className="home-video-dialog" data-testid="avatar-dialog">
        <DialogBody className="home-video-body">
          {video && <VideoPlayer key={video.id} src={video.url} poster={video.cover || undefined} autoPlay label={video.name} className={`home-video ${orientation === 1 ? 'landscape' : 'portrait'}`} data-testid="avatar-video" />}
        </DialogBody>
        <DialogFooter actions={[<Button key="close" text="关闭" onClick={() => setVideo(null)} />, <Button key="create" intent="primary" icon="video" text="用TA创建视频" onClick={() => video && createWith(video)} />]} />
      </Dialog>
    </div>
  );
}
