import { lazyChunk, definePlugin, type TopBarContribution, type DialogContribution } from '../../core';
import { CreditsActionsToken, CreditsStore, CreditsStoreToken } from './credits-state';
import { CreditsActions } from './credits-actions';

// The top-bar buttons share one chunk, loaded with the workbench; the panels (and the chart library) load when opened.
const topBar = () => import('./panels/TopBarItems');
const PointsButton = lazyChunk(() => topBar().then((m) => ({ default: m.PointsButton })));
const VipButton = lazyChunk(() => topBar().then((m) => ({ default: m.VipButton })));
const SpaceButton = lazyChunk(() => topBar().then((m) => ({ default: m.SpaceButton })));
const QrButton = lazyChunk(() => topBar().then((m) => ({ default: m.QrButton })));
const NoticeButton = lazyChunk(() => topBar().then((m) => ({ default: m.NoticeButton })));

const dialogs = () => import('./panels/Dialogs');
const RedeemDialog = lazyChunk(() => dialogs().then((m) => ({ default: m.RedeemDialog })));
const SpaceExpandDialog = lazyChunk(() => dialogs().then((m) => ({ default: m.SpaceExpandDialog })));
const NoticeDialog = lazyChunk(() => dialogs().then((m) => ({ default: m.NoticeDialog })));

const ConsumPanel = lazyChunk(() => import('./panels/ConsumPanel'));
const MoreCreditsPanel = lazyChunk(() => import('./panels/MoreCreditsPanel'));

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
  panels: [
    { route: '/consum', component: ConsumPanel },
    { route: '/moreCredits', component: MoreCreditsPanel },
  ],
});
