export * from './tokens';
export * from './plugin';
export * from './container';
export * from './react';
export { ApiCallError } from './api-client';
export { parseHash, formatHref } from './navigation';
export { UploadRefusedError, bucketRefusal, uploadKey } from './upload-service';
export { ComingSoon } from './coming-soon';
import { lazy } from 'react';
/** Sanitized operator HTML; DOMPurify loads with the first panel that shows some. */
export const SafeHtml = lazy(() => import('./safe-html').then((m) => ({ default: m.SafeHtml })));
/** Drag-and-drop upload with progress and cancel (upload-box.tsx); its code loads with the first one shown. */
import { createElement, Suspense } from 'react';
import type { UploadBoxProps } from './upload-box';
export type { UploadBoxProps, UploadedFile } from './upload-box';
const UploadBoxImpl = lazy(() => import('./upload-box').then((m) => ({ default: m.UploadBox })));
export const UploadBox = (props: UploadBoxProps) =>
  createElement(Suspense, { fallback: createElement('div', { className: 'upload-box', style: { minHeight: props.compact ? 120 : 168 } }) }, createElement(UploadBoxImpl, props));
export { SearchBox, listPending, type SearchBoxProps } from './list-parts';
export { CloneAgreement, ConsentFooter, useConsent, type CloneAgreementProps } from './consent';
export { UploadedFileLabel } from './uploaded-file';
export { RenameDialog, ConfirmAlert, ConfirmDelete, RequirementList, type RenameDialogProps, type ConfirmAlertProps, type ConfirmDeleteProps, type RequirementListProps } from './dialogs';
export { leadingGate } from './leading-gate';
export { TIMINGS, type ClientTimings } from './timings';
export { commandTable, navigationCommands, refreshOn, type CommandRow } from './command-table';
export { PanelHostContext, usePanelHost, type PanelHost } from './panel-host';
export { formatDuration, formatClock, formatSize, formatDate, formatDateTime } from './format';
export { useAudioPlayer, type AudioPlayer, type AudioPlayerState } from './audio-player';
export { VideoPlayer, type VideoPlayerProps } from './video-player';
export { PageHeader, type PageHeaderProps } from './page-header';
export { useRemote, useRemoteList, usePagedList, useDebounced, remoteValue, errorMessage, mergePages, type Remote, type Loaded, type PagedList, type Page, type PollWhile } from './remote';
export { useAction, useDeletion, type Action, type ActionOptions, type Deletion } from './action';
export { DraftStore, claimUserData, forgetUserData, GUEST_OWNER, isRecord, stringOr, numberOr, pickedOr, type DraftRules } from './draft-store';
export { RemoteStore, PagedStore, DeletionFlow, runBusy, hasMorePages, type RemoteStoreOptions } from './screen-state';
export { useScreen, useValue, useStore, useDeletionFlow, type StoreView } from './screen-hooks';
