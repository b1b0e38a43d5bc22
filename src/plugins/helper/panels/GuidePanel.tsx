import { useOpenedScreen, type PanelProps } from '../../../core';
import { HelperStateToken, type HelperState } from '../helper-state';
import { HelperChat } from './HelperChat';

/** /helper/index: how-to questions answered from the product's own guide. The state is helper-state.ts's. */
export default function GuidePanel({ closed$ }: PanelProps) {
  const screen = useOpenedScreen(HelperStateToken, (state: HelperState) => state.screen('guide', closed$));
  return <HelperChat screen={screen} />;
}
