import { API, type VoiceChannel } from '../../../contract';
import { ScriptEditor } from '../editor/ScriptEditor';
import { channelHasEmotion, useCreate } from './create-draft';
import { useList } from './use-list';

/** 脚本: the script editor, wired to the draft (the voice's channel sets the limit, pauses, languages, emotions and the language hint). */
export function ScriptPane() {
  const { draft, update, audition, submit } = useCreate();
  const channel = draft.voice?.api;
  const channels = useList<VoiceChannel>('voice-channels', async (api, signal) => (await api.call(API.voice.channels, {}, { silent: true, signal })).list);
  const hint = channels.list.find((c) => c.api === channel)?.language;
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
        languageHint={hint ? `支持语言：${hint}` : undefined}
      />
    </div>
  );
}
