/**
 * /create (part 2 §2.2): a dock of four panes the user can rearrange — 脚本 (drive switch, script editor or audio),
 * 数字人 (avatar picker), 声音 (voices and their parameters), 预览 (preview, audition, 合成视频). The draft's rules are
 * in create-logic.ts; the stored draft and the address in use-create-draft.ts; the audition, the channel dialog and
 * the submission in use-create-submission.ts; the arrangement in use-create-dock.ts (persisted, layout.ts).
 */
import { useEffect, useMemo } from 'react';
import { Alert, Button } from '@blueprintjs/core';
import { DockviewReact, themeDark, themeLight, type IDockviewPanelHeaderProps } from 'dockview-react';
import { MSG } from '../../../contract';
import { DockTab, TOKENS, useObservable, useScreenServices, useService, type PanelProps, type ThemeService } from '../../../core';
import { CreateContext, type CreateContextValue } from './create-draft';
import { draftSeconds } from './create-logic';
import { ChannelDialog } from './ChannelDialog';
import { CreationStateToken, type CreatePageHandle, type CreationState } from '../creation-state';
import { CREATE_LAYOUT_KEY } from './layout';
import { ScriptPane } from './ScriptPane';
import { AvatarPane } from './AvatarPane';
import { VoicePane } from './VoicePane';
import { PreviewPane } from './PreviewPane';
import { PicturePane } from './PicturePane';
import { CreateHeader } from './CreateHeader';
import { useCreateDraft } from './use-create-draft';
import { useCreateSubmission } from './use-create-submission';
import { useCreateDock } from './use-create-dock';
import { CHARACTERS_SCREEN, CREATE_SCREEN, PET_SCREEN, type CreateScreen } from './screens';
import './create.css';

const avatarComponents = { script: ScriptPane, avatar: AvatarPane, voice: VoicePane, preview: PreviewPane };
const pictureComponents = { ...avatarComponents, avatar: PicturePane };

/** A pane's tab; a closed pane comes back from the palette (开始创作：显示「…」窗格) or the reset button. */
function PaneTab(props: IDockviewPanelHeaderProps) {
  return <DockTab {...props} data-testid={`create-tab-${props.api.id}`} />;
}

/** Every pane closed: the way back. */
function NoPanes() {
  const creation = useService<CreationState>(CreationStateToken);
  return (
    <div className="cr-center cr-no-panes" data-testid="create-no-panes">
      <p>窗格都已关闭</p>
      <Button icon="reset" text="恢复默认布局" onClick={() => creation.createPage?.resetLayout()} />
    </div>
  );
}

/** /pet/establish and /store/characters: the same screen with the picture picker. */
export const PetEstablishPanel = (props: PanelProps) => <CreatePanel {...props} screen={PET_SCREEN} />;
export const CharactersPanel = (props: PanelProps) => <CreatePanel {...props} screen={CHARACTERS_SCREEN} />;

export default function CreatePanel({ query: rawQuery, closed$, screen = CREATE_SCREEN }: PanelProps & { screen?: CreateScreen }) {
  const services = useScreenServices();
  const { api, storage, navigation } = services;
  const themes = useService<ThemeService>(TOKENS.ThemeService);
  const theme = useObservable(themes.theme$, themes.current);
  const titles = useMemo(() => ({ avatar: screen.pickerTitle }), [screen.pickerTitle]);

  const drafted = useCreateDraft(api, storage, screen, rawQuery);
  const { draft, draftRef, update, query } = drafted;
  const flow = useCreateSubmission(services, drafted, closed$, screen);
  const { channels, channel, audition, auditioning, playToken, submit, submitting } = flow;
  const dock = useCreateDock(storage, CREATE_LAYOUT_KEY + screen.layoutSuffix, titles);

  const seconds = draftSeconds(draft);
  const value = useMemo<CreateContextValue>(
    () => ({ draft, update, query, audition, auditioning, playToken, submit, submitting, channels: channels.list, channel, screen, seconds }),
    [draft, update, query, audition, auditioning, playToken, submit, submitting, channels.list, channel, screen, seconds],
  );

  // The palette's commands act on this page while it is the active one.
  const creation = useService<CreationState>(CreationStateToken);
  const { revealPane, resetLayout } = dock;
  useEffect(() => {
    const handle: CreatePageHandle = {
      get mode() {
        return draftRef.current.mode;
      },
      showPane: revealPane,
      resetLayout,
      submit,
      setMode: (mode) => update({ mode }),
    };
    creation.createPage = handle;
    return () => {
      if (creation.createPage === handle) creation.createPage = null;
    };
  }, [creation, revealPane, resetLayout, submit, update, draftRef]);

  return (
    <CreateContext.Provider value={value}>
      <div className="cr-page" data-testid="create-panel" data-screen={screen.route}>
        <CreateHeader title={screen.title} draft={draft} update={update} channel={channel} seconds={seconds} submitting={submitting} onSubmit={submit} onResetLayout={resetLayout} />
        <div className="cr-dock" ref={dock.hostRef}>
          <DockviewReact
            className="cr-dockview"
            components={screen.pictureType ? pictureComponents : avatarComponents}
            defaultTabComponent={PaneTab}
            onReady={dock.onReady}
            theme={theme === 'dark' ? themeDark : themeLight}
            defaultRenderer="always"
            disableFloatingGroups
            watermarkComponent={NoPanes}
          />
        </div>
      </div>
      <ChannelDialog
        isOpen={flow.dialogOpen}
        channels={channels.list}
        tips={channels.tips}
        loading={channels.loading}
        current={channel?.api ?? ''}
        busy={submitting}
        seconds={seconds}
        onClose={() => !submitting && flow.closeDialog()}
        onCreate={flow.create}
        subtitles={draft.subtitles}
        onSubtitles={(subtitles) => update({ subtitles })}
        bgm={draft.bgm}
        onBgm={(bgm) => update({ bgm })}
      />
      <Alert
        isOpen={flow.submitted}
        icon="tick-circle"
        intent="success"
        confirmButtonText="去作品页"
        cancelButtonText="继续创作"
        onConfirm={() => {
          flow.closeSubmitted();
          navigation.navigate(screen.works.path, screen.works.query);
        }}
        onCancel={flow.closeSubmitted}
        className="cr-alert"
      >
        <p className="cr-alert-title">{MSG.submitSucceeded}</p>
        <p className="cr-alert-text">{MSG.submitAlert}</p>
      </Alert>
    </CreateContext.Provider>
  );
}
