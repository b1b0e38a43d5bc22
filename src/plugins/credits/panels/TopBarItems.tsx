/** The credits plugin's top-bar items, one chunk loaded with the workbench (index.ts takes each from here). */
import '../credits.css';

export { PointsButton } from './PointsButton';
export { VipButton, QrButton } from './StatusButtons';
export { SpaceButton } from './SpaceButton';
export { NoticeButton } from './NoticeButton';
