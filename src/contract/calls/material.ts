/** The material (asset) library (part 1 §3, §7; part 2 §2.5, §2.10, §7). */
import { z } from 'zod';
import { defineGroup, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { oneOf, requiredText } from '../schema';
import { Timestamp, intOneOf, listPage, nameField, optionalFilter, pageFields, removeById, renameById } from './fields';

export const MATERIAL_TYPES = ['video', 'audio', 'image', 'text'] as const;
export type MaterialType = (typeof MATERIAL_TYPES)[number];
/** List filter (ours reading of the spec's 0/1/2): 0 all, 1 uploaded by the user, 2 saved from a tool (analyse, chat). */
export const MATERIAL_SOURCES = [0, 1, 2] as const;
/** Material.source: what the user uploaded, or what a tool saved. */
export const MaterialSource = { Uploaded: 1, Saved: 2 } as const;

export const Material = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  cover: z.string(),
  /** 1 uploaded, 2 saved from a tool. */
  source: z.number(),
  /** ours */
  type: z.enum(MATERIAL_TYPES).optional(),
  /** ours: where a saved item came from ('analyse', 'copy_chat'). */
  origin: z.string().optional(),
  /** ours: the text of a text material. */
  text: z.string().optional(),
  /** ours: seconds, for video and audio. */
  duration: z.number().optional(),
  /** ours */
  create_time: Timestamp.optional(),
});
export type Material = z.infer<typeof Material>;

export const materialCalls = defineGroup('material', {
  list: specCall('GET', '/api/user/material', {
    summary: 'Material library list by type and source (0 all); used by the materials page and the material-library pickers.',
    request: z.object({
      ...pageFields,
      type: optionalFilter(oneOf('素材类型', MATERIAL_TYPES)),
      source: intOneOf('来源', MATERIAL_SOURCES).default(0),
    }),
    response: listPage(Material),
  }),
  rename: renameById({ path: '/api/user/materialEdit', pathFromSpec: false, summary: 'ours: rename a material; answers MSG.renameSucceeded.' }, '素材ID'),
  remove: removeById({ path: '/api/user/material', pathFromSpec: false, summary: 'ours: delete a material (the client confirms first).' }, '素材ID'),
  saveText: specCall('POST', '/api/user/textMaterial', {
    summary: 'Save a chat answer to the material library as a text material (source copy_chat).',
    request: z.object({
      name: nameField(MSG.renameNameRequired),
      source: z.literal('copy_chat', { error: '来源取值有误' }).default('copy_chat'),
      text: requiredText('文本', MSG.textRequired, LIMITS.textMaterialMaxChars),
    }),
    response: z.object({ id: z.number() }),
  }),
});
