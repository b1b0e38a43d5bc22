/**
 * The screens that share /create's panes and flows (part 2 §2.2): /create itself (an avatar video), /pet/establish
 * (a pet picture) and /store/characters (a person picture). They differ in the picker, words, where a layout is
 * kept and which works tab a submitted work opens.
 */
import { MSG, PhotoType, type VideoChannel } from '../../../contract';
import { WORKS_AFTER_SUBMIT } from './create-logic';

export interface CreateScreen {
  route: '/create' | '/pet/establish' | '/store/characters';
  title: string;
  /** The picture type the picker offers; absent: the avatar picker. */
  pictureType?: (typeof PhotoType)[keyof typeof PhotoType];
  /** The picker pane's tab title. */
  pickerTitle: string;
  /** The picker's library (its upload dialog opens with ?type=upload). */
  library?: '/pet' | '/store/imageSpeak';
  /** Offers the material library's images (characters only). */
  materialImages?: boolean;
  /** Suffix of the keys this screen stores under: its dock arrangement and its draft (each screen keeps its own). */
  layoutSuffix: string;
  /** The works page after a submission (type1 0 video works, type2 1 digital human, 2 pet, 4 photo-speak). */
  works: { readonly path: '/works'; readonly query: { readonly type1: 0; readonly type2: 1 | 2 | 4 } };
  /** What the preview says about how the chosen channel makes the video (lip sync or not). */
  note: (channel: VideoChannel | undefined) => string;
}

/** The channels made on this machine: 本地口型 moves the mouth, 本地合成 does not; any other is an operator's engine. */
const LIP_CHANNEL = 'lip';
const LOCAL_CHANNEL = 'local';

const videoNote = (c: VideoChannel | undefined) =>
  !c ? MSG.lipSyncSummary : c.api === LIP_CHANNEL ? MSG.lipChannelNote : c.api === LOCAL_CHANNEL ? MSG.localChannelNote : MSG.remoteChannelNote(c.name);
const pictureNote = (c: VideoChannel | undefined) => (c?.api === LOCAL_CHANNEL ? MSG.localPictureNote : MSG.lipPictureNote);

export const CREATE_SCREEN: CreateScreen = {
  route: '/create', title: '开始创作', pickerTitle: '数字人', layoutSuffix: '', works: WORKS_AFTER_SUBMIT,
  note: videoNote,
};

export const PET_SCREEN: CreateScreen = {
  route: '/pet/establish', title: '创建宠物视频', pictureType: PhotoType.Pet, pickerTitle: '宠物', library: '/pet', layoutSuffix: '.pet',
  works: { path: '/works', query: { type1: 0, type2: 2 } }, note: pictureNote,
};

export const CHARACTERS_SCREEN: CreateScreen = {
  route: '/store/characters', title: '创建照片说话', pictureType: PhotoType.Person, pickerTitle: '图片', library: '/store/imageSpeak', materialImages: true,
  layoutSuffix: '.characters', works: { path: '/works', query: { type1: 0, type2: 4 } }, note: pictureNote,
};
