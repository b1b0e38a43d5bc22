import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, ProgressBar } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import { AudioPreview, TOKENS, VideoPlayer, formatSize, useService, type Notifier } from '../../../core';
import { fetchWithProgress, saveBlob } from '../download';
import { downloadFileName, isAudioUrl, type WorkItem } from '../works-view';

/** Plays a finished work: a video, or (multi-scene audio) an audio player. */
export function PlayerDialog({ item, audio, onClose }: { item: WorkItem | null; audio: boolean; onClose: () => void }) {
  const asAudio = item ? audio || isAudioUrl(item.url) : false;
  return (
    <Dialog isOpen={item !== null} onClose={onClose} title={item?.name ?? ''} icon={asAudio ? 'music' : 'play'} className={`wk-player-dialog ${asAudio ? 'audio' : ''}`}>
      <DialogBody className="wk-player-body">
        {item &&
          (asAudio ? (
            <AudioPreview id={item.id} src={item.url} className="wk-audio-player" iconClassName="wk-audio-icon" testId="work-audio" />
          ) : (
            <VideoPlayer key={item.id} src={item.url} poster={item.cover || undefined} autoPlay label={item.name} className="wk-player" data-testid="work-video" />
          ))}
      </DialogBody>
    </Dialog>
  );
}

/** The download progress dialog: fetches the signed url with progress, then saves it (part 1 §2, §8). */
export function DownloadDialog({ item, onClose }: { item: WorkItem | null; onClose: () => void }) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [progress, setProgress] = useState({ loaded: 0, total: 0 });
  const controller = useRef<AbortController | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    if (!item) return;
    const ctl = new AbortController();
    controller.current = ctl;
    setProgress({ loaded: 0, total: 0 });
    const name = downloadFileName(item.name, item.url);
    fetchWithProgress(item.url, setProgress, ctl.signal).then(
      (blob) => {
        if (ctl.signal.aborted) return;
        saveBlob(blob, name);
        notifier.success(MSG.downloadSucceeded);
        closeRef.current();
      },
      () => {
        if (ctl.signal.aborted) return;
        notifier.error(MSG.downloadFailed);
        closeRef.current();
      },
    );
    return () => ctl.abort();
  }, [item, notifier]);

  const cancel = () => {
    controller.current?.abort();
    notifier.info(MSG.cancelled);
    onClose();
  };
  const percent = progress.total > 0 ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : null;

  return (
    <Dialog isOpen={item !== null} onClose={cancel} title="下载作品" icon="download" className="wk-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <div className="wk-download-name" title={item?.name}>
          {item ? downloadFileName(item.name, item.url) : ''}
        </div>
        <ProgressBar intent="primary" value={percent === null ? undefined : percent / 100} stripes={percent === null} />
        <div className="wk-download-meta" data-testid="download-progress">
          <span>{percent === null ? '正在连接…' : `${percent}%`}</span>
          <span>{progress.total > 0 ? `${formatSize(progress.loaded)} / ${formatSize(progress.total)}` : progress.loaded > 0 ? formatSize(progress.loaded) : ''}</span>
        </div>
      </DialogBody>
      <DialogFooter actions={<Button text="取消下载" onClick={cancel} />} />
    </Dialog>
  );
}

