/**
 * 我的音乐: each task with its state (排队中, 生成中, 已完成, or 失败 with its reason); the one chosen (or the newest
 * done one) shows its waveform player. Done tracks play, download, rename, save to material and 用作背景音乐.
 */
import { AnchorButton, Button, NonIdealState, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { type MusicTask } from '../../../contract';
import { Waveform, formatClock, formatDateTime, metaLine, useStore, useValue, useWaveform, type AudioPlayer } from '../../../core';
import type { MusicScreen } from '../music-state';
import { STATUS_LABEL, isBusy, isDone, trackKey } from '../music-view';

export function MyMusic({ screen, player }: { screen: MusicScreen; player: AudioPlayer }) {
  const tasks = useStore(screen.tasks);
  const chosenId = useValue(screen.chosenId$);
  const list = tasks.value?.list ?? [];
  const current = list.find((t) => t.id === chosenId && isDone(t)) ?? list.find(isDone) ?? null;
  return (
    <section className="tool-card mus-mine" data-testid="music-mine">
      <header className="mus-card-head">
        <h3>我的音乐</h3>
        <span className="mus-note">{list.length ? `共 ${tasks.value?.total ?? list.length} 首` : ''}</span>
        {tasks.loading && <Spinner size={14} />}
      </header>
      {list.length === 0 ? (
        <NonIdealState icon="music" description={tasks.loaded ? '还没有作品，生成后会出现在这里' : '加载中…'} className="mus-empty" />
      ) : (
        <ul className="mus-tasks">
          {list.map((t) => (
            <Task key={t.id} task={t} screen={screen} player={player} current={t.id === current?.id} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Task({ task: t, screen, player, current }: { task: MusicTask; screen: MusicScreen; player: AudioPlayer; current: boolean }) {
  const status = STATUS_LABEL[t.status] ?? STATUS_LABEL[1]!;
  const done = isDone(t);
  const key = trackKey(`my-${t.id}`);
  const playing = player.state.key === key && player.state.playing;
  const play = () => {
    screen.choose(t);
    player.toggle(key, t.url);
  };
  return (
    <li className={`mus-task${current ? ' current' : ''}`} data-testid="music-task" data-id={t.id} data-status={t.status}>
      <div className="mus-task-row">
        <span className="mus-task-icon">
          {isBusy(t) ? <Spinner size={18} /> : done ? <Button variant="minimal" icon={playing ? 'pause' : 'play'} aria-label={playing ? '暂停' : '播放'} onClick={play} data-testid="music-task-play" /> : <span className="mus-failed-dot" />}
        </span>
        <button type="button" className="mus-task-body" onClick={() => done && screen.choose(t)} disabled={!done}>
          <span className="mus-task-title">
            <span className="mus-task-name" data-testid="music-task-name">{t.title}</span>
            <Tag minimal round intent={status.intent} data-testid="music-task-status">{status.text}</Tag>
            {t.background === 1 && <Tag minimal round icon="music" intent="primary" data-testid="music-task-bgm">背景音乐</Tag>}
          </span>
          <span className="mus-task-meta">
            {metaLine(done ? formatClock(t.duration) : '', t.instrumental ? '纯音乐' : '带人声', t.credits > 0 ? `${t.credits}积分` : '', formatDateTime(t.create_time))}
          </span>
          {t.reason && <span className="mus-task-reason" data-testid="music-task-reason">{t.reason}</span>}
        </button>
        <div className="mus-task-actions">
          {done && (
            <>
              <Tooltip content="下载" placement="top" compact>
                <AnchorButton variant="minimal" icon="download" aria-label="下载" href={t.url} download={`${t.title}.mp3`} data-testid="music-task-download" />
              </Tooltip>
              <Tooltip content="重命名" placement="top" compact>
                <Button variant="minimal" icon="edit" aria-label="重命名" onClick={() => screen.renaming$.next(t)} data-testid="music-task-rename" />
              </Tooltip>
              <Tooltip content="保存到素材库" placement="top" compact>
                <Button variant="minimal" icon="folder-new" aria-label="保存到素材库" onClick={() => void screen.saveToMaterial(t)} data-testid="music-task-save" />
              </Tooltip>
              <Tooltip content={t.background ? '取消背景音乐' : '用作背景音乐'} placement="top" compact>
                <Button variant="minimal" icon={t.background ? 'star' : 'star-empty'} intent={t.background ? 'primary' : 'none'} aria-label={t.background ? '取消背景音乐' : '用作背景音乐'} onClick={() => void screen.toggleBackground(t)} data-testid="music-task-background" />
              </Tooltip>
            </>
          )}
          {!isBusy(t) && (
            <Tooltip content="删除" placement="top" compact>
              <Button variant="minimal" icon="trash" aria-label="删除" onClick={() => screen.deletion.ask(t)} data-testid="music-task-delete" />
            </Tooltip>
          )}
        </div>
      </div>
      {current && done && <TrackWave id={`my-${t.id}`} url={t.url} duration={t.duration} player={player} />}
      {current && done && t.lyrics && (
        <details className="mus-lyrics">
          <summary>歌词</summary>
          <pre data-testid="music-task-lyrics">{t.lyrics}</pre>
        </details>
      )}
    </li>
  );
}

/** A track's waveform and times; a click seeks (starting it when another sound is loaded). */
export function TrackWave({ id, url, duration, player }: { id: string; url: string; duration: number; player: AudioPlayer }) {
  const key = trackKey(id);
  const load = useWaveform(key, url);
  const mine = player.state.key === key;
  const time = mine ? player.state.time : 0;
  const length = duration || (mine ? player.state.duration : 0);
  return (
    <div className="mus-wave">
      <Waveform
        load={load}
        height={44}
        data-testid="music-wave"
        progress={mine && length > 0 ? Math.min(1, time / length) : 0}
        onSeek={(f) => {
          if (!mine) player.play(key, url);
          player.seek(f);
        }}
      />
      <div className="mus-wave-time">
        <span data-testid="music-time">{formatClock(time)}</span>
        <span>{formatClock(length)}</span>
      </div>
    </div>
  );
}
