import { ScriptEditor } from '../editor/ScriptEditor';
import { channelHasEmotion, useCreate } from './create-draft';

/** 脚本: the script editor, wired to the draft (the voice's channel sets the limit, pauses, languages and emotions). */
export function ScriptPane() {
  const { draft, update, audition, submit } = useCreate();
  const channel = draft.voice?.api;
  return (
    <div className="cr-pane cr-script" data-testid="create-script">
      <ScriptEditor
        value={draft.text}
        onChange={(text) => update({ text })}
        channelApi={channel}
        onAudition={audition}
        onSubmit={submit}
        showLanguage={Boolean(channel)}
        language={draft.language}
        onLanguageChange={(language) => update({ language })}
        showEmotion={channelHasEmotion(channel)}
        emotion={draft.emotion}
        onEmotionChange={(emotion) => update({ emotion })}
      />
    </div>
  );
}
