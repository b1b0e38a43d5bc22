/**
 * Values for every call of the catalogue, found by walking zod's own definitions: a baseline each call's schema
 * accepts, so a test can change one field and know that field decided the answer (hostile-input and fuzz specs).
 */
import type { z } from 'zod';
import type { CallDef } from '../../src/contract';

/* Walking zod's own definitions, which it does not type publicly. */
type Def = any;
export const defOf = (schema: z.ZodType): Def => (schema as any)._zod.def;

/** The object schema inside a call's request (under refinements, preprocessing and pipes). */
export function objectOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape;
  if (def.type === 'pipe') return objectOf(defOf(def.in).type === 'transform' ? def.out : def.in);
  return null;
}

/** Every literal and enum value named anywhere in a field's schema: candidates the field may accept. */
function namedValues(schema: z.ZodType, out: unknown[] = []): unknown[] {
  const def = defOf(schema);
  if (def.type === 'enum') out.push(...Object.values(def.entries));
  if (def.type === 'literal') out.push(...def.values);
  for (const key of ['innerType', 'in', 'out']) if (def[key]) namedValues(def[key], out);
  for (const option of def.options ?? []) namedValues(option, out);
  return out;
}

export const SCENES = JSON.stringify([{ type: 'text', text: '你好', voice_id: 1, video_id: 1, rate: 1, volume: 1, pitch: 1 }]);
const CANDIDATES: unknown[] = [1, '1', 2, 5, 10, 'abc123', '13800000000', '你好', '2024-01-01', 'https://example.com/a.mp4', '/storage/1/a.mp4', SCENES, 0];

/** A value the field's own schema accepts, preferring a present one. */
function acceptedValue(field: z.ZodType): unknown {
  for (const value of [...namedValues(field), ...CANDIDATES]) if (field.safeParse(value).success) return value;
  return undefined;
}

/** Where fields depend on each other, the generated values are patched (undefined removes a field). */
const PATCHES: Record<string, Record<string, unknown>> = {
  'account.changePassword': { old_password: 'nope12', password: 'abc1234', confirm: 'abc1234' },
  'admin.siteSet': { settings: { site_title: 'x' } },
  'works.create': { photo_id: undefined, material_video_id: undefined },
  'translation.submit': { source_lang: 'zh', target_lang: 'en' },
  'dubbing.create': { lines: JSON.stringify([{ voice_id: 1, text: '你好' }]), bgm_id: undefined },
  'videogen.promptsSet': { list: [{ name: '运镜', list: [{ name: '缓慢推近' }] }] },
  'videogen.recommendSet': { list: [{ content: '海边日落，镜头缓慢推近' }] },
  // One-click storyboards are scenes of their own shape (multiples' SCENES would be refused).
  'oneclick.create': { scenes: JSON.stringify([{ text: '你好。', kind: 'avatar' }]), photo_id: undefined, bgm_id: undefined },
  'oneclick.saveDraft': { id: undefined, draft: JSON.stringify({ scenes: [{ text: '你好。', kind: 'avatar' }] }) },
  // Batch rows are works.create's fields (multiples' SCENES would be rows of another shape); check answers each row's error.
  'batch.check': { rows: JSON.stringify([{ name: '一', text: '你好', video_id: 1, user_voice_id: 1, api: 'local' }]) },
  'batch.create': { rows: JSON.stringify([{ name: '一', text: '你好', video_id: 1, user_voice_id: 1, api: 'local' }]) },
};

/** Params the call's request schema accepts, one value for each of its fields. */
export function baseline(call: CallDef): Record<string, unknown> {
  const shape = objectOf(call.request) ?? {};
  const generated = Object.entries(shape).map(([k, field]) => [k, acceptedValue(field)] as const);
  const patched = Object.entries({ ...Object.fromEntries(generated), ...PATCHES[call.id] });
  return Object.fromEntries(patched.filter(([, v]) => v !== undefined));
}
