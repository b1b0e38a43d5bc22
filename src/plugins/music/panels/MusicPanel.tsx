/**
 * /store/music/index, AI music: the form on the left (description and chips, 纯音乐/带人声, lyrics, title, 生成音乐
 * with its price behind a confirmation), 我的音乐 and the music library on the right. Without an engine the screen
 * says so and cannot generate; the library still works. The state is the screen's (music-state.ts).
 */
import { useMemo } from 'react';
import { Callout } from '@blueprintjs/core';
import { MSG } from '../../../contract';
import {
  GenerationConfirms, PageHeader, RenameDialog, TOKENS, useAudioPlayer, useScreen, useService, useStore, useValue,
  type Notifier, type PanelProps,
} from '../../../core';
import { MusicStateToken, type MusicScreen, type MusicState } from '../music-state';
import { MusicForm } from './MusicForm';
import { MusicLibrary } from './MusicLibrary';
import { MyMusic } from './MyMusic';
import './music.css';

export default function MusicPanel({ closed$ }: PanelProps) {
  const state = useService<MusicState>(MusicStateToken);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const screen = useScreen(() => state.open(closed$));
  const engine = useStore(screen.engine);
  const player = useAudioPlayer((m) => notifier.error(m));
  return (
    <div className="mus-page" data-testid="music-panel">
      <div className="mus-inner">
        <PageHeader icon="music" title="AI音乐" subtitle="AI 作词作曲，生成原创音乐；用作背景音乐后，配音与视频创作都能选用。" />
        {engine.loaded && !engine.value?.engine && (
          <Callout intent="warning" icon="offline" className="mus-missing" data-testid="music-engine-missing">
            {MSG.musicEngineMissing}
          </Callout>
        )}
        <div className="tool-layout mus-layout">
          <MusicForm screen={screen} />
          <div className="tool-column">
            <MyMusic screen={screen} player={player} />
            <MusicLibrary screen={screen} player={player} />
          </div>
        </div>
      </div>
      <Dialogs screen={screen} />
      <audio {...player.bind} className="mus-audio" data-testid="music-audio" />
    </div>
  );
}

function Dialogs({ screen }: { screen: MusicScreen }) {
  const form = useValue(screen.form$);
  const submitting = useValue(screen.submitting$);
  const renaming = useValue(screen.renaming$);
  const engine = useStore(screen.engine);
  const credits = engine.value?.credits ?? 0;
  // The dialog resets its field whenever its item changes: one object per task renamed.
  const renamed = useMemo(() => (renaming ? { ...renaming, name: renaming.title } : null), [renaming]);
  return (
    <>
      <GenerationConfirms
        screen={screen}
        busy={submitting}
        generate={{
          icon: 'music',
          title: `确认生成「${form.title.trim()}」？`,
          text: <>{form.instrumental ? '纯音乐' : form.lyrics.trim() ? '带人声，使用你的歌词' : '带人声，由 AI 根据描述作词'}，将消耗 <b>{credits}</b> 积分；生成失败会全额退回。</>,
          confirmText: '确认生成',
          className: 'mus-confirm',
          onConfirm: () => void screen.generate(),
        }}
        remove={{ title: '删除这首音乐？', text: '删除后音频将无法恢复（已保存到素材库的副本不受影响），确定删除吗？' }}
        classPrefix="mus"
      />
      <RenameDialog
        item={renamed}
        title="重命名音乐"
        label="歌曲名称"
        inputId="mus-rename"
        inputTestId="music-rename-input"
        saveTestId="music-rename-save"
        onClose={() => screen.renaming$.next(null)}
        onSave={(t, name) => screen.rename(t, name)}
      />
    </>
  );
}
