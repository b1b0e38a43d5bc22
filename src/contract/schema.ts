/** Small zod helpers shared by the call catalogue, so every field speaks Chinese when it is wrong. */
import { z } from 'zod';

const MAX_TEXT = 20_000;

/** Column ids and counts are 32-bit integers in the database: no accepted number may pass this. */
export const INT32_MAX = 2 ** 31 - 1;

/** PostgreSQL text cannot hold NUL: a string with one is refused here, with the field's name, not by the database. */
export const NUL = '\u0000';
export const plainString = (label: string, error: string = `${label}格式有误`) =>
  z.string({ error }).refine((v) => !v.includes(NUL), `${label}包含无效字符`);

export const text = (label: string, max = 200) => plainString(label).trim().max(max, `${label}不能超过${max}个字符`);

export const requiredText = (label: string, message: string, max = 200) =>
  plainString(label, message).trim().min(1, message).max(max, `${label}不能超过${max}个字符`);

export const optionalText = (label: string, max = 200) => text(label, max).optional();

export const longText = (label: string, max = MAX_TEXT) => plainString(label).max(max, `${label}不能超过${max}个字符`);

/** An integer that may arrive as a number or a numeric string. */
export const int = (label: string, min = 0, max = INT32_MAX) =>
  z.coerce
    .number({ error: `${label}必须是数字` })
    .int(`${label}必须是整数`)
    .min(min, `${label}不能小于${min}`)
    .max(max, `${label}不能大于${max}`);

export const num = (label: string, min: number, max: number) =>
  z.coerce.number({ error: `${label}必须是数字` }).min(min, `${label}不能小于${min}`).max(max, `${label}不能大于${max}`);

export const id = (label = 'ID') => int(label, 1);

export const page = () => int('页码', 0, 1_000_000).default(1);
export const limit = () => int('条数', 0, 99_999).default(20);

export const oneOf = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: `${label}取值有误` });

export const empty = z.object({}).strip();
export const okOnly = z.object({}).passthrough().nullable();

export const paged = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item), total: z.number().int().optional() });
