import { Button, Dialog, DialogBody, DialogFooter, Icon, NonIdealState, Spinner } from '@blueprintjs/core';
import { useService, useStore, useValue } from '../../../core';
import { CloneStateToken, type CloneState } from '../clone-state';
import { channelPrice, pickableChannels, showsFreeTimes } from '../voice-view';

/** 选择克隆渠道: each pickable channel with its price, free and training times; a click picks it (settling after 0.5 s). */
export function ChannelDialog({ isOpen }: { isOpen: boolean }) {
  const clone = useService<CloneState>(CloneStateToken);
  const channels = useStore(clone.channels);
  const picked = useValue(clone.picked$);
  const list = channels.value ? pickableChannels(channels.value) : null;
  const close = () => clone.close();

  return (
    <Dialog isOpen={isOpen} onClose={close} title="选择克隆渠道" icon="exchange" className="vc-dialog vc-channel-dialog">
      <DialogBody className="vc-channel-body">
        {channels.error ? (
          <NonIdealState icon="error" title="渠道加载失败" description={channels.error} action={<Button icon="refresh" text="重试" onClick={() => clone.channels.reload()} />} />
        ) : list === null ? (
          <div className="vc-dialog-center">
            <Spinner size={28} />
          </div>
        ) : list.length === 0 ? (
          <NonIdealState icon="offline" title="暂无可用渠道" description="运营方开通声音克隆渠道后即可使用。" />
        ) : (
          <div className="vc-channels" role="radiogroup" aria-label="克隆渠道" data-testid="voice-channels">
            {list.map((c) => {
              const selected = picked === c.api;
              return (
                <button
                  key={c.api}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  className={`vc-channel ${selected ? 'selected' : ''}`}
                  onClick={() => clone.choose(c)}
                  data-testid="voice-channel"
                  data-api={c.api}
                >
                  <span className="vc-channel-head">
                    <span className="vc-channel-name">{c.name}</span>
                    {c.version_name && <span className="vc-channel-version">{c.version_name}</span>}
                    <span className={`vc-channel-price ${c.credits > 0 ? '' : 'free'}`} data-testid="voice-channel-price">
                      {channelPrice(c)}
                    </span>
                  </span>
                  {c.desc && <span className="vc-channel-desc">{c.desc}</span>}
                  <span className="vc-channel-meta">
                    {showsFreeTimes(c) && (
                      <span data-testid="voice-channel-free">
                        剩余免费 <b>{c.free_times}</b> 次
                      </span>
                    )}
                    <span data-testid="voice-channel-train">
                      可训练 <b>{c.train_times}</b> 次
                    </span>
                    {c.language && <span className="vc-channel-lang">{c.language}</span>}
                  </span>
                  <Icon icon={selected ? 'tick-circle' : 'circle'} className="vc-channel-check" size={16} />
                </button>
              );
            })}
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={[<Button key="cancel" text="取消" onClick={close} />]}>
        <span className="vc-dialog-hint">点选渠道后进入下一步</span>
      </DialogFooter>
    </Dialog>
  );
}
