import { lazyPanels, lazyPart, definePlugin, type TopBarContribution, type DialogContribution } from '../../core';
import { CreditsActionsToken, CreditsStore, CreditsStoreToken } from './credits-state';
import { CreditsActions } from './credits-actions';

// The top-bar buttons share one chunk, loaded with the workbench; the panels (and the chart library) load when opened.
const topBar = () => import('./panels/TopBarItems');
const PointsButton = lazyPart(() => topBar(), 'PointsButton');
const VipButton = lazyPart(() => topBar(), 'VipButton');
const SpaceButton = lazyPart(() => topBar(), 'SpaceButton');
const QrButton = lazyPart(() => topBar(), 'QrButton');
const NoticeButton = lazyPart(() => topBar(), 'NoticeButton');

const dialogs = () => import('./panels/Dialogs');
const RedeemDialog = lazyPart(() => dialogs(), 'RedeemDialog');
const SpaceExpandDialog = lazyPart(() => dialogs(), 'SpaceExpandDialog');
const NoticeDialog = lazyPart(() => dialogs(), 'NoticeDialog');

const topBarItems: TopBarContribution[] = [
  { id: 'credits.points', order: 10, component: PointsButton },
  { id: 'credits.vip', order: 20, component: VipButton },
  { id: 'credits.space', order: 30, component: SpaceButton },
  { id: 'credits.qr', order: 40, component: QrButton },
  { id: 'credits.notices', order: 50, component: NoticeButton },
];

const dialogItems: DialogContribution[] = [
  { id: 'credits.redeem', component: RedeemDialog },
  { id: 'credits.spaceExpand', component: SpaceExpandDialog },
  { id: 'credits.notice', component: NoticeDialog },
];

export const plugin = definePlugin('credits', {
  services: [[CreditsStoreToken, CreditsStore], [CreditsActionsToken, CreditsActions]],
  commands: CreditsActionsToken,
  topBar: topBarItems,
  dialogs: dialogItems,
  panels: lazyPanels({
    '/consum': () => import('./panels/ConsumPanel'),
    '/moreCredits': () => import('./panels/MoreCreditsPanel'),
  }),
});
