/**
 * The two picture libraries as data (part 2 §2.1, §2.4, §5): /pet (pets) and /store/imageSpeak (people) differ only
 * in words, the picture type and where a picture's video is made.
 */
import { MSG, PhotoSource, PhotoType, type Photo } from '../../contract';

export interface LibraryKind {
  route: '/pet' | '/store/imageSpeak';
  type: (typeof PhotoType)[keyof typeof PhotoType];
  title: string;
  subtitle: string;
  publicTab: string;
  /** What one picture is called (宠物, 人物图片). */
  noun: string;
  /** The creation screen: /pet/establish or /store/characters, with id and source. */
  establish: string;
  nameRequired: string;
  imageRequired: string;
  icon: 'heart' | 'mugshot';
}

export const PET_LIBRARY: LibraryKind = {
  route: '/pet', type: PhotoType.Pet, title: '宠物视频', subtitle: '选一张宠物照片，配上台词生成会说话的视频', publicTab: 'AI宠物库', noun: '宠物',
  establish: '/pet/establish', nameRequired: MSG.petNameRequired, imageRequired: MSG.petImageRequired, icon: 'heart',
};

export const PERSON_LIBRARY: LibraryKind = {
  route: '/store/imageSpeak', type: PhotoType.Person, title: '照片说话', subtitle: '一张人物照片配上文案，生成会说话的视频', publicTab: 'AI图片库', noun: '人物图片',
  establish: '/store/characters', nameRequired: MSG.personNameRequired, imageRequired: MSG.personImageRequired, icon: 'mugshot',
};

export type LibraryTab = 'public' | 'mine';
export const TAB_SOURCE: Record<LibraryTab, number> = { public: PhotoSource.Public, mine: PhotoSource.Mine };

/** `?type=…` (any value) opens the upload dialog on the my-uploads tab. */
export const opensUpload = (query: Record<string, string | undefined>) => query.type !== undefined;

/** The upload dialog's checks, in the spec's order (the agreement is not enforced). */
export function uploadProblem(kind: LibraryKind, form: { name: string; fileId: number | null }): string | null {
  if (!form.name.trim()) return kind.nameRequired;
  if (form.fileId === null) return kind.imageRequired;
  return null;
}

/** Where create-video leads: the creation screen with the picture's id and source (1 mine, 2 public). */
export const establishQuery = (photo: Pick<Photo, 'id' | 'source'>) => ({ id: photo.id, source: photo.source });

/** Only the user's own pictures may be deleted. */
export const canDelete = (photo: Pick<Photo, 'source'>) => photo.source === PhotoSource.Mine;
