import { useState } from 'react';
import { Icon, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { API, LIMITS, MSG, VoiceStatus, type Voice } from '../../../contract';
import { TOKENS, useService, type Notifier } from '../../../core';
import { useCreate } from './create-draft';
import { useList } from './use-list';

type Source = '2' | '1';

/** 声音 (first version): public and own voices; the picked voice's channel drives the script editor. */
export function VoicePane() {
  const { draft, update } = useCreate();
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [source, setSource] = useState<Source>('2');
  const { list, loading, error } = useList<Voice>(`voices-${source}`, async (api, signal) =>
    (await api.call(API.voice.list, { source: Number(source) as 1 | 2, page: 1, limit: LIMITS.listLimitAll }, { silent: true, signal })).list,
  );

  const pick = (voice: Voice) => {
    if (voice.generate_status === VoiceStatus.Training) notifier.warn(MSG.voiceTraining);
    else if (voice.generate_status === VoiceStatus.Failed) notifier.warn(MSG.voiceFailed);
    // A new voice may have another channel: its language and emotion start over.
    else update({ voice, language: '', emotion: 'default' });
  };

  return (
    <div className="cr-pane" data-testid="create-voices">
      <SegmentedControl
        className="cr-segment"
        size="small"
        value={source}
        onValueChange={(v) => setSource(v as Source)}
        options={[
          { label: '公共声音', value: '2' },
          { label: '我的声音', value: '1' },
        ]}
      />
      {loading && list.length === 0 ? (
        <div className="cr-center">
          <Spinner size={20} />
        </div>
      ) : error ? (
        <NonIdealState icon="error" description={error} className="cr-empty" />
      ) : list.length === 0 ? (
        <NonIdealState icon="music" description={source === '1' ? '还没有声音，可在「声音克隆」创建' : '暂无公共声音'} className="cr-empty" />
      ) : (
        <ul className="cr-voice-list">
          {list.map((v) => (
            <li key={v.id}>
              <button type="button" className={`cr-voice ${draft.voice?.id === v.id ? 'picked' : ''}`} onClick={() => pick(v)} aria-pressed={draft.voice?.id === v.id}>
                <Icon icon={draft.voice?.id === v.id ? 'tick-circle' : 'music'} className="cr-voice-icon" />
                <span className="cr-voice-name">{v.name}</span>
                <span className="cr-voice-meta">{v.version_name || v.api}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
