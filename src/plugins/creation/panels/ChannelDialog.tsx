import { useEffect, useState } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { MSG, effectOrderTip, type VideoChannel } from '../../../contract';
import { estimatePrice } from './create-logic';
import { SubtitleOptions } from '../SubtitleOptions';
import type { SubtitleChoice } from '../subtitle-choice';
import { BgmPicker } from '../BgmPicker';
import type { BgmChoice } from '../bgm-choice';

export interface ChannelDialogProps {
  isOpen: boolean;
  channels: VideoChannel[];
  tips: string;
  loading: boolean;
  /** The channel to preselect (create-logic's preferredChannel: the last choice, else the best offered). */
  current: string;
  busy: boolean;
  /** What the work is estimated to take (seconds), for the price line. */
  seconds: number;
  onClose: () => void;
  onCreate: (api: string) => void;
  /** Burned-in captions, chosen here before the work is made. */
  subtitles: SubtitleChoice;
  onSubtitles: (value: SubtitleChoice) => void;
  /** Background music, chosen here too (absent: the screen offers none). */
  bgm?: BgmChoice;
  onBgm?: (value: BgmChoice) => void;
}

/**
 * 选择训练通道 (part 2 §2.2): each channel's name, description, version and credits per second; the effect order as the
 * tip (of the channels offered) and what each does about lip sync; the best channel preselected; and the captions and background music the work gets (ours).
 */
export function ChannelDialog(props: ChannelDialogProps) {
  const { isOpen, channels, current } = props;
  const [picked, setPicked] = useState(current);
  useEffect(() => {
    if (isOpen) setPicked(current);
  }, [isOpen, current, channels]);
  const chosen = channels.find((c) => c.api === picked);
  return (
    <Dialog isOpen={isOpen} onClose={props.busy ? undefined : props.onClose} title="选择训练通道" icon="layers" className="cr-channel-dialog" data-testid="create-channel-dialog">
      <DialogBody className="cr-channel-body">
        <p className="cr-channel-tips" data-testid="create-channel-tips">
          <Icon icon="info-sign" size={12} /> {props.tips || effectOrderTip(channels)}
        </p>
        <p className="cr-channel-tips" data-testid="create-channel-lipsync">{MSG.lipSyncSummary}</p>
        {props.loading && channels.length === 0 ? (
          <div className="cr-center">
            <Spinner size={20} />
          </div>
        ) : channels.length === 0 ? (
          <NonIdealState icon="offline" description="暂无可用的训练通道" className="cr-empty" />
        ) : (
          <div className="cr-channel-list" role="radiogroup" aria-label="训练通道">
            {channels.map((c) => (
              <button
                type="button"
                role="radio"
                aria-checked={picked === c.api}
                key={c.api}
                className={`cr-channel ${picked === c.api ? 'picked' : ''}`}
                onClick={() => setPicked(c.api)}
                disabled={props.busy}
                data-testid={`create-channel-${c.api}`}
              >
                <span className="cr-channel-top">
                  <span className="cr-channel-name">{c.name}</span>
                  {c.version_name && <span className="cr-channel-version">{c.version_name}</span>}
                  <span className="cr-channel-price">{c.credits} 积分/秒</span>
                </span>
                {c.desc && <span className="cr-channel-desc">{c.desc}</span>}
              </button>
            ))}
          </div>
        )}
        <div className="cr-channel-subtitles">
          <SubtitleOptions value={props.subtitles} onChange={props.onSubtitles} disabled={props.busy} />
          {props.bgm && props.onBgm && <BgmPicker value={props.bgm} onChange={props.onBgm} disabled={props.busy} />}
        </div>
      </DialogBody>
      <DialogFooter
        actions={[
          <Button key="cancel" text="取消" onClick={props.onClose} disabled={props.busy} />,
          <Button
            key="create"
            intent="primary"
            icon="video"
            text={props.busy ? '合成中…' : '开始合成'}
            loading={props.busy}
            disabled={!chosen}
            onClick={() => chosen && props.onCreate(chosen.api)}
            data-testid="create-channel-confirm"
          />,
        ]}
      >
        {chosen && props.seconds > 0 && (
          <span className="cr-channel-estimate" title={MSG.estimateSettles}>预计约 {estimatePrice(props.seconds, chosen.credits)} 积分，按实际时长结算</span>
        )}
      </DialogFooter>
    </Dialog>
  );
}
