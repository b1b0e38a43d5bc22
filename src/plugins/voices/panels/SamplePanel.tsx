import { useState } from 'react';
import { Button, Icon, type IconName } from '@blueprintjs/core';
import { LIMITS } from '../../../contract';
import { TOKENS, UploadBox, UploadedFileLabel, useService, type Navigation, type PanelProps, type UploadedFile } from '../../../core';
import { CLONE_ROUTE } from '../voices-commands';
import { AUDIO_SAMPLE, CLONE_AUDIO_ACCEPT, checkCloneAudio } from '../voice-view';
import { SamplePlayer } from './SamplePlayer';
import './voices.css';

const TIPS: { icon: IconName; title: string; text: string }[] = [
  { icon: 'home', title: '安静环境', text: '关闭空调、风扇等噪声源，避免回声' },
  { icon: 'person', title: '单人发声', text: '只录一个人的声音，不带背景音乐' },
  { icon: 'time', title: '时长适中', text: `每段 ${LIMITS.audio.minSeconds} 秒 ~ ${LIMITS.audio.maxSeconds / 60} 分钟，建议 3~5 分钟` },
  { icon: 'microphone', title: '自然朗读', text: '语速平稳、吐字清楚，贴近日常说话' },
];

/** /voice (part 1 §2): the voice sample page, a static guide with an upload of at most 3 audio files. */
export default function SamplePanel(_props: PanelProps) {
  const navigation = useService<Navigation>(TOKENS.Navigation);
  const [samples, setSamples] = useState<UploadedFile[]>([]);

  return (
    <div className="vc-page" data-testid="sample-panel">
      <div className="vc-inner vc-sample">
        <header className="vc-head vc-head-plain">
          <div className="vc-head-text">
            <h2 className="vc-title">声音样本</h2>
            <p className="vc-subtitle">上传最多 {LIMITS.voiceSampleMaxFiles} 段音频样本，上传后可试听和查看波形；样本同时保存在素材库。</p>
          </div>
          <Button icon="volume-up" text="去克隆声音" onClick={() => navigation.navigate(CLONE_ROUTE, { id: 1 })} data-testid="sample-go-clone" />
        </header>

        <ul className="vc-tips" data-testid="sample-tips">
          {TIPS.map((t) => (
            <li key={t.title} className="vc-tip">
              <span className="vc-tip-icon">
                <Icon icon={t.icon} size={16} />
              </span>
              <span className="vc-tip-text">
                <b>{t.title}</b>
                <span>{t.text}</span>
              </span>
            </li>
          ))}
        </ul>

        <UploadBox
          type="voice"
          maxFiles={LIMITS.voiceSampleMaxFiles}
          accept={CLONE_AUDIO_ACCEPT}
          check={(file) => checkCloneAudio(file)}
          onUploaded={(file) => setSamples((list) => [...list, file])}
          onRemoved={(file) => setSamples((list) => list.filter((s) => s.file_id !== file.file_id))}
          title={
            <>
              将音频拖到此处，或 <em>点击上传</em>
            </>
          }
          hint={`最多 ${LIMITS.voiceSampleMaxFiles} 个文件 · ${AUDIO_SAMPLE.formats} · ${AUDIO_SAMPLE.size} 以内`}
          data-testid="sample-upload"
        />

        {samples.length > 0 && (
          <ol className="vc-samples" data-testid="sample-list">
            {samples.map((s, i) => (
              <li key={s.file_id} className="vc-sample-item" data-testid="sample-item">
                <div className="vc-sample-head">
                  <span className="vc-sample-index">样本 {i + 1}</span>
                  <UploadedFileLabel file={s} classPrefix="vc-sample" />
                </div>
                <SamplePlayer waveKey={`upload:${s.file_id}`} url={s.url} waveSource={s.file} knownDuration={s.duration} data-testid="sample-player" />
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
