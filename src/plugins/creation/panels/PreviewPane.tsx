import { Button, Icon } from '@blueprintjs/core';
import { MSG, countChars, estimateSeconds, scriptLimit } from '../../../contract';
import { useCreate } from './create-draft';

/** 预览 (first version): what the work is made of so far, and the way to submit it. */
export function PreviewPane() {
  const { draft, submit } = useCreate();
  const seconds = Math.round(estimateSeconds(draft.text));
  const cover = draft.avatar ? draft.avatar.cover || draft.avatar.cover_small : '';
  return (
    <div className="cr-pane cr-preview" data-testid="create-preview">
      <div className="cr-stage">
        {cover ? <img src={cover} alt={draft.avatar?.name ?? ''} /> : <span className="cr-stage-empty"><Icon icon="person" size={28} />选择数字人后在此预览</span>}
      </div>
      <dl className="cr-summary">
        <dt>数字人</dt>
        <dd>{draft.avatar?.name ?? '未选择'}</dd>
        <dt>声音</dt>
        <dd>{draft.voice?.name ?? '未选择'}</dd>
        <dt>台词</dt>
        <dd>
          {countChars(draft.text)} / {scriptLimit(draft.voice?.api)} 字{seconds > 0 ? ` · 约 ${seconds} 秒` : ''}
        </dd>
      </dl>
      <p className="cr-note">{MSG.localEngineNote}</p>
      <Button intent="primary" icon="video" text="合成视频" fill onClick={submit} data-testid="create-submit" />
    </div>
  );
}
