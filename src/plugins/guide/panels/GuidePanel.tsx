import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogBody, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { API, type GuideCategory, type GuideItem } from '../../../contract';
import { TOKENS, VideoPlayer, useService, type ApiClient, type PanelProps } from '../../../core';
import './guide.css';

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'ready'; categories: GuideCategory[] };

/** /use: tutorial videos by category; a card plays its video in a dialog. */
export default function GuidePanel({ closed$ }: PanelProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [playing, setPlaying] = useState<GuideItem | null>(null);
  const sections = useRef(new Map<number, HTMLElement>());

  const fetchList = useCallback(
    (signal?: AbortSignal) => {
      setLoad({ state: 'loading' });
      api.call(API.guide.list, {}, { silent: true, signal }).then(
        (reply) => setLoad({ state: 'ready', categories: reply.list.filter((c) => c.items.length > 0) }),
        (err: unknown) => {
          if (!signal?.aborted) setLoad({ state: 'failed', error: err instanceof Error ? err.message : String(err) });
        },
      );
    },
    [api],
  );

  useEffect(() => {
    const controller = new AbortController();
    fetchList(controller.signal);
    const sub = closed$.subscribe(() => controller.abort());
    return () => {
      controller.abort();
      sub.unsubscribe();
    };
  }, [fetchList, closed$]);

  const jump = (index: number) => sections.current.get(index)?.scrollIntoView({ behavior: 'smooth', block: 'start' });

  let body;
  if (load.state === 'loading') {
    body = (
      <div className="guide-state" data-testid="guide-loading">
        <Spinner size={28} />
      </div>
    );
  } else if (load.state === 'failed') {
    body = (
      <div className="guide-state" data-testid="guide-failed">
        <NonIdealState icon="error" title="加载失败" description={load.error} action={<Button icon="refresh" text="重新加载" onClick={() => fetchList()} />} />
      </div>
    );
  } else if (load.categories.length === 0) {
    body = (
      <div className="guide-state" data-testid="guide-empty">
        <NonIdealState
          icon="learning"
          title="暂无教程"
          // Setup steps are for the operator (the server's first-start output and the CLI), never for users.
          description="平台发布使用教程后会显示在这里。"
        />
      </div>
    );
  } else {
    const { categories } = load;
    body = (
      <>
        {categories.length > 1 && (
          <nav className="guide-chips" aria-label="教程分类">
            {categories.map((category, i) => (
              <button key={`${category.name}-${i}`} type="button" className="guide-chip" onClick={() => jump(i)}>
                {category.name}
                <span className="guide-chip-count">{category.items.length}</span>
              </button>
            ))}
          </nav>
        )}
        {categories.map((category, i) => (
          <section
            key={`${category.name}-${i}`}
            className="guide-section"
            data-testid="guide-category"
            ref={(el) => {
              if (el) sections.current.set(i, el);
              else sections.current.delete(i);
            }}
          >
            <h2 className="guide-section-title">{category.name}</h2>
            <div className="guide-grid">
              {category.items.map((item, j) => (
                <button key={`${item.video_url}-${j}`} type="button" className="guide-card" onClick={() => setPlaying(item)} data-testid="guide-card">
                  <span className="guide-cover">
                    {item.cover ? <img src={item.cover} alt="" loading="lazy" draggable={false} /> : <Icon icon="video" size={32} className="guide-cover-placeholder" />}
                    <span className="guide-play" aria-hidden>
                      <Icon icon="play" size={22} />
                    </span>
                  </span>
                  <span className="guide-name" title={item.name}>
                    {item.name}
                  </span>
                </button>
              ))}
            </div>
          </section>
        ))}
      </>
    );
  }

  return (
    <div className="guide-panel" data-testid="guide-panel">
      <div className="guide-inner">
        <header className="guide-header">
          <Icon icon="learning" size={22} className="guide-header-icon" />
          <div>
            <h1>使用教程</h1>
            <p>跟着视频教程，快速上手数字人创作的每一步。</p>
          </div>
        </header>
        {body}
      </div>
      <Dialog isOpen={playing !== null} onClose={() => setPlaying(null)} title={playing?.name ?? ''} icon="learning" className="guide-video-dialog">
        <DialogBody className="guide-video-body">
          {playing && <VideoPlayer key={playing.video_url} src={playing.video_url} poster={playing.cover || undefined} autoPlay label={playing.name} className="guide-video" data-testid="guide-video" />}
        </DialogBody>
      </Dialog>
    </div>
  );
}
