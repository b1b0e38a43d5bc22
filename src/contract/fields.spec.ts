import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API, MSG } from './index';
import { INT32_MAX, id, int, longText, requiredText, text } from './schema';
import { calendarDate, isCalendarDate, optionalId, requiredId, scriptText } from './calls/fields';

describe('shared field schemas refuse what the database would refuse', () => {
  it('ids and integers stop at the 32-bit columns', () => {
    for (const schema of [id(), int('数量'), requiredId('请选择'), optionalId('声音')]) {
      expect(schema.safeParse(INT32_MAX).success).toBe(true);
      expect(schema.safeParse(INT32_MAX + 1).success).toBe(false);
      expect(schema.safeParse(String(2 ** 53 - 1)).success).toBe(false);
    }
  });

  it('no text field takes a NUL character', () => {
    const fields: z.ZodType[] = [text('名称'), requiredText('名称', '请填写'), longText('正文'), scriptText('文案', '请输入文案')];
    for (const schema of fields) {
      expect(schema.safeParse('好的').success).toBe(true);
      const refused = schema.safeParse('好\u0000的');
      expect(refused.success).toBe(false);
      expect(refused.error!.issues[0]!.message).toMatch(/包含无效字符$/);
    }
    expect(API.account.login.request.safeParse({ username: '1380000\u0000', password: 'abc123' }).success).toBe(false);
    const scene = JSON.stringify([{ type: 'text', text: 'a\u0000', voice_id: 1, video_id: 1 }]);
    expect(API.works.multi.request.safeParse({ api: 'fy', model: 'V3.0', content: scene }).success).toBe(false);
  });

  it('a date must exist on the calendar, not only look like one', () => {
    for (const day of ['2024-02-29', '2023-12-31', '2024-01-01']) expect(isCalendarDate(day)).toBe(true);
    for (const day of ['2024-02-30', '2023-02-29', '2024-13-45', '2024-00-10', '2024-04-31', '0000-01-01']) expect(isCalendarDate(day)).toBe(false);
    expect(calendarDate().safeParse('2024-02-30').error?.issues[0]?.message).toBe(MSG.dateInvalid);
    expect(API.credits.log.request.safeParse({ start: '2024-02-30' }).success).toBe(false);
    expect(API.credits.daily.request.safeParse({ start: '2024-01-01', end: '2024-13-45' }).success).toBe(false);
    expect(API.credits.daily.request.safeParse({ start: '2024-02-01', end: '2024-02-29' }).success).toBe(true);
  });
});
