import { Button, InputGroup, Tooltip } from '@blueprintjs/core';
import { LIMITS, MSG, type VideoChannel } from '../../../contract';
import { estimatePrice, type CreateDraft } from './create-logic';

export interface CreateHeaderProps {
  title: string;
  draft: CreateDraft;
  update: (patch: Partial<CreateDraft>) => void;
  /** The chosen video channel (else the first), for the price. */
  channel: VideoChannel | undefined;
  seconds: number;
  submitting: boolean;
  onSubmit: () => void;
  onResetLayout: () => void;
}

/**
 * The head of a /create screen: its title, the work's name, the layout reset, and the primary action with its price,
 * which stay in view whatever the panes' arrangement (the preview may be closed or behind a tab).
 */
export function CreateHeader({ title, draft, update, channel, seconds, submitting, onSubmit, onResetLayout }: CreateHeaderProps) {
  return (
    <header className="cr-head">
      <h2 className="cr-title">{title}</h2>
      <InputGroup
        className="cr-name"
        size="small"
        leftIcon="edit"
        value={draft.name}
        maxLength={LIMITS.nameMaxChars}
        placeholder={LIMITS.defaultWorkName}
        aria-label="作品名称"
        onValueChange={(name) => update({ name })}
        onBlur={() => !draft.name.trim() && update({ name: LIMITS.defaultWorkName })}
        data-testid="create-name"
      />
      <span className="cr-subtitle">拖动标签可调整布局</span>
      <Tooltip content="恢复默认布局" placement="bottom" compact>
        <Button variant="minimal" size="small" icon="reset" aria-label="恢复默认布局" onClick={onResetLayout} data-testid="create-reset-layout" />
      </Tooltip>
      <Tooltip content={MSG.estimateSettles} placement="bottom" compact>
        <span className="cr-head-price" data-testid="create-head-price">
          {channel && seconds > 0 ? <>约 <strong>{estimatePrice(seconds, channel.credits)}</strong> 积分</> : channel ? `${channel.credits} 积分/秒` : ''}
        </span>
      </Tooltip>
      <Button intent="primary" icon="video" text="合成视频" loading={submitting} onClick={onSubmit} className="cr-head-submit" data-testid="create-submit" />
    </header>
  );
}
