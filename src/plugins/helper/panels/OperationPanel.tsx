import { useOpenedScreen, type PanelProps } from '../../../core';
import { HelperStateToken, type HelperState } from '../helper-state';
import { HelperChat } from './HelperChat';

/** /helper/operation: the assistant operates the product; spending waits for the confirmation card. */
export default function OperationPanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(HelperStateToken, (state: HelperState) => state.screen('operation', closed$));
  return <HelperChat screen={screen} />;
}
