export * from './tokens';
export * from './plugin';
export * from './container';
export * from './react';
export { ApiCallError } from './api-client';
export { parseHash, formatHref } from './navigation';
export { UploadRefusedError, bucketRefusal, uploadKey } from './upload-service';
export { ComingSoon } from './coming-soon';
export { lazyChunk, lazyPart, lazyPanels, lazyPartPanels, LoadBoundary, ChunkLoadFailed, type LoadBoundaryProps } from './lazy-chunk';
import { lazyPart } from './lazy-chunk';
import { createElement, Suspense } from 'react';
/** Sanitized operator HTML; DOMPurify loads with the first panel that shows some. */
export const SafeHtml = lazyPart(() => import('./safe-html'), 'SafeHtml');
export type { UploadBoxProps, UploadedFile } from './upload-box';
export { UploadBox } from './upload-box-lazy';
export { ShareVideoForm, sharedVideoProblem, type ShareVideoFormProps } from './shared-video';
export { ShareForm, SharedVideoJobs, linkProblem, type ShareFormOwner, type SharedVideoJobsOwner } from './share-form';
export { CountedField, CountedTextArea, type CountedTextAreaProps } from './counted-text';
export { SearchBox, listPending, type SearchBoxProps } from './list-parts';
export { CloneAgreement, ConsentFooter, useConsent, type CloneAgreementProps } from './consent';
export { OneFileUpload, UploadedFileLabel } from './uploaded-file';
export { AudioPreview, GenerationConfirms, RenameDialog, ConfirmAlert, ConfirmDelete, RequirementList, type AudioPreviewProps, type GenerationConfirmsProps, type GenerationScreen, type RenameDialogProps, type ConfirmAlertProps, type ConfirmDeleteProps, type RequirementListProps } from './dialogs';
export { leadingGate } from './leading-gate';
export { TIMINGS, type ClientTimings } from './timings';
export { AUDITION_GIVE_UP_MS, speakAudition } from './audition';
export { commandTable, navigationCommands, onPage, refreshOn, type CommandRow } from './command-table';
export { PanelHostContext, usePanelHost, type PanelHost } from './panel-host';
export { formatDuration, formatClock, formatSize, formatDate, formatDateTime, metaLine, parseChinaTime, vipStatus, type VipStatus } from './format';
export { useAudioPlayer, type AudioPlayer, type AudioPlayerState } from './audio-player';
export { Waveform, useWaveform, type WaveformLoad, type WaveformMarker } from './waveform';
export { computePeaks, resamplePeaks, loadWaveform, hasWaveform, canDecodeAudio, type WaveformData } from './waveform-data';
export { VideoPlayer, type VideoPlayerProps } from './video-player';
export { LoopingVideo, useReducedMotion } from './looping-video';
export { PageHeader, PriceTags, ToolPage, type PageHeaderProps } from './page-header';
export { MessageBox, MessageComposer, type MessageBoxProps } from './message-box';
export { useRemote, useRemoteList, usePagedList, useDebounced, remoteValue, errorMessage, mergePages, type Remote, type Loaded, type PagedList, type Page, type PollWhile } from './remote';
export { useAction, useDeletion, useRenaming, type Action, type ActionOptions, type Deletion, type Renaming } from './action';
export { DraftStore, claimUserData, forgetUserData, GUEST_OWNER, isRecord, stringOr, numberOr, pickedOr, type DraftRules } from './draft-store';
export { Segments, type SegmentsProps } from './segments';
export { PickerDialog, pickerPending, type PickerDialogProps } from './picker-pending';
export { VoiceSlider, type VoiceSliderProps } from './voice-slider';
export { SLIDER_DEFAULTS, roundSlider, sceneVoiceOf, sliderEnabled, voiceLabel, voiceSettings, type SceneVoice, type SliderKey } from './voice-choice';
export { ScriptEditorState, AUDITION_LABELS, aiEngineMissing, type ScriptEditorHandle } from './script-editor/editor-state';
export { PAUSE_CHOICES, chipLabel, findMarkers, hasText, type MarkerRange } from './script-editor/markers';
import type { ScriptEditorProps } from './script-editor/script-editor';
import type { VoicePickerProps } from './voice-picker';
export type { ScriptEditorProps, VoicePickerProps };
/**
 * The script editor (pause chips, polish, AI writing, the counter; script-editor/) and the voice picker (选择声音),
 * shared by the creation screens and the dubbing studio; their code loads with the first one shown (Monaco later
 * still, with the first editor's surface).
 */
const ScriptEditorImpl = lazyPart(() => import('./script-editor/script-editor'), 'ScriptEditor');
export const ScriptEditor = (props: ScriptEditorProps) =>
  createElement(Suspense, { fallback: createElement('div', { className: `se-root ${props.className ?? ''}` }) }, createElement(ScriptEditorImpl, props));
const VoicePickerImpl = lazyPart(() => import('./voice-picker'), 'VoicePicker');
export const VoicePicker = (props: VoicePickerProps) => createElement(Suspense, { fallback: null }, createElement(VoicePickerImpl, props));
export { followAnswer, readAnswer, StreamRefused, takeEvents } from './answer-stream';
export { copyText, openInCreate, openInOneclick, takeOneclickText } from './text-hand-off';
export { RemoteStore, PagedStore, DeletionFlow, FormScreen, GenerationFormScreen, OpenScreen, runBusy, runBusyItem, hasMorePages, type RemoteStoreOptions } from './screen-state';
export { useAskedRecord, useOpenedScreen, useScreen, useValue, useStore, useDeletionFlow, useScrolledToEnd, type StoreView } from './screen-hooks';
export { screenStates, type ScreenOpeners } from './screen-services';
export { HTMLSelect, RecordOptions, musicTrackLabel } from './select';
export { CLOSE_TAB_LABEL, DockTab } from './dock-tab';
export { cloneFormCheck, endedSince, sampleWords, useCloneOutcomes, type CloneOutcome, type SampleWords } from './clone-outcomes';
