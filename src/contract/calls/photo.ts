/** Pet and person (photo-speak) image libraries (part 2 §2.4, §3, §5, §7). */
import { z } from 'zod';
import { defineGroup, specCall, operatorCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { requiredText, text } from '../schema';
import { intOneOf, listPage, optionalId, pageFields, removeById } from './fields';

/** Photo.type: 1 person, 2 pet. */
export const PhotoType = { Person: 1, Pet: 2 } as const;
export type PhotoTypeValue = (typeof PhotoType)[keyof typeof PhotoType];
/** Photo.source: 1 mine, 2 public (AI library). */
export const PhotoSource = { Mine: 1, Public: 2 } as const;
export const PHOTO_SOURCES = [PhotoSource.Mine, PhotoSource.Public] as const;

export const Photo = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  cover: z.string(),
  /** 1 mine, 2 public. */
  source: z.number(),
  /** 1 person, 2 pet. */
  type: z.number(),
  /** ours: the mouth the user marked (fractions of the picture's width and height); null when not marked. */
  mouth_x: z.number().nullable().optional(),
  mouth_y: z.number().nullable().optional(),
});
export type Photo = z.infer<typeof Photo>;

/** A mouth mark's coordinate: a fraction of the picture, inside it. */
const MOUTH_FRACTION = z.coerce.number({ error: MSG.photoMouthInvalid }).min(0, MSG.photoMouthInvalid).max(1, MSG.photoMouthInvalid).optional();

const REQUIRED = {
  [PhotoType.Person]: { name: MSG.personNameRequired, image: MSG.personImageRequired },
  [PhotoType.Pet]: { name: MSG.petNameRequired, image: MSG.petImageRequired },
} as const;

export const photoCalls = defineGroup('photo', {
  list: specCall('GET', '/api/user/photo', {
    summary: 'Pet (type 2) or person (type 1) images, mine (source 1) or public (source 2); limit 0 answers all.',
    request: z.object({
      source: intOneOf('来源', PHOTO_SOURCES).default(1),
      type: intOneOf('图片类型', [PhotoType.Person, PhotoType.Pet]),
      ...pageFields,
    }),
    response: listPage(Photo),
  }),
  create: specCall('POST', '/api/user/photo', {
    summary:
      'Add an own pet or person image from a registered image (png/jpg, file_id) or, ours, an image of the material library ' +
      '(material_id: /store/characters picks from it); messages per type. Ours: mouth_x/mouth_y, the mouth the user marked.',
    request: z
      .object({
        type: intOneOf('图片类型', [PhotoType.Person, PhotoType.Pet]),
        name: text('名称', LIMITS.nameMaxChars).default(''),
        file_id: optionalId('图片'),
        material_id: optionalId('素材'),
        /** ours: where the user clicked the mouth, as fractions of the picture (a pet's mouth is not found by itself). */
        mouth_x: MOUTH_FRACTION,
        mouth_y: MOUTH_FRACTION,
      })
      .superRefine((v, ctx) => {
        if ((v.mouth_x === undefined) !== (v.mouth_y === undefined)) ctx.addIssue({ code: 'custom', message: MSG.photoMouthInvalid, path: ['mouth_x'] });
        const msg = REQUIRED[v.type];
        if (!v.name) ctx.addIssue({ code: 'custom', message: msg.name, path: ['name'] });
        if (v.file_id === undefined && v.material_id === undefined) ctx.addIssue({ code: 'custom', message: msg.image, path: ['file_id'] });
      }),
    response: z.object({ id: z.number() }),
  }),
  remove: removeById({ path: '/api/user/photo', pathFromSpec: true, summary: 'Delete an own image (public ones cannot be deleted).' }, '图片ID'),
  publish: operatorCall('POST', '/api/admin/photoPublish', {
    summary: 'Publish a pet or person image of the AI library from a local png/jpg on the server machine, checked like an upload.',
    request: z.object({
      name: requiredText('名称', '请填写名称', LIMITS.nameMaxChars),
      image: requiredText('图片', '请提供图片文件', 2000),
      type: intOneOf('图片类型（1 人物，2 宠物）', [PhotoType.Person, PhotoType.Pet]),
    }),
    response: z.object({ id: z.number().int() }),
  }),
});
