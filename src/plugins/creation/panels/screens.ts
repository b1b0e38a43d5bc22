/**
 * The screens that share /create's panes and flows (part 2 §2.2): /create itself (an avatar video), /pet/establish
 * (a pet picture) and /store/characters (a person picture). They differ in the picker, words, where a layout is
 * kept and which works tab a submitted work opens.
 */
import { MSG, PhotoType } from '../../../contract';
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
  /** What the preview says about how the video is made. */
  note: string;
}

export const CREATE_SCREEN: CreateScreen = {
  route: '/create', title: '开始创作', pickerTitle: '数字人', layoutSuffix: '', works: WORKS_AFTER_SUBMIT,
  note: `${MSG.localEngineNote}：本地合成把数字人视频循环播放在语音下面，口型不跟随语音。`,
};

const PICTURE_NOTE = '图片视频在本机生成：选「本地口型」且检测到正脸时嘴部随台词开合；宠物或未检测到正脸时以镜头缓动呈现，作品卡片会注明。';

export const PET_SCREEN: CreateScreen = {
  route: '/pet/establish', title: '创建宠物视频', pictureType: PhotoType.Pet, pickerTitle: '宠物', library: '/pet', layoutSuffix: '.pet',
  works: { path: '/works', query: { type1: 0, type2: 2 } }, note: PICTURE_NOTE,
};

export const CHARACTERS_SCREEN: CreateScreen = {
  route: '/store/characters', title: '创建照片说话', pictureType: PhotoType.Person, pickerTitle: '图片', library: '/store/imageSpeak', materialImages: true,
  layoutSuffix: '.characters', works: { path: '/works', query: { type1: 0, type2: 4 } }, note: PICTURE_NOTE,
};
