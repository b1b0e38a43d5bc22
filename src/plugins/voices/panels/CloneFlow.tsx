import { useService, useValue } from '../../../core';
import { VoicesStateToken, type VoicesState } from '../voices-state';
import { ChannelDialog } from './ChannelDialog';
import { CloneDialog } from './CloneDialog';
import { NoticeDialog } from './NoticeDialog';
import './voices.css';

/**
 * The clone flow (part 1 §2, §4, §5): the usage and payment notice (agree), the channel picker (xf hidden, the
 * choice debounced 0.5 s), then the clone dialog (name, one audio, its waveform, start). Modify opens the clone
 * dialog for the voice, on its own channel, with its id. The step is VoicesState's, the rest CloneState's.
 */
export default function CloneFlow() {
  const state = useService<VoicesState>(VoicesStateToken);
  const flow = useValue(state.flow$);
  return (
    <>
      <NoticeDialog isOpen={flow.step === 'notice'} onClose={() => state.closeClone()} onAgree={() => state.noticeAgreed()} />
      <ChannelDialog isOpen={flow.step === 'channel'} />
      <CloneDialog isOpen={flow.step === 'form'} target={flow.target} onChangeChannel={() => state.changeChannel()} />
    </>
  );
}
