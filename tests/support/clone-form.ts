import { expect } from 'vitest';

/**
 * A clone form's check (core's cloneFormCheck, with a plugin's messages): a blank name is asked for first, then the
 * file, and with both there is nothing to say. The avatar and voice clone forms both promise this order.
 */
export function expectNameThenFile(problem: (name: string, fileId: number | null) => string | null, nameRequired: string, fileRequired: string): void {
  expect(problem(' ', null)).toBe(nameRequired);
  expect(problem('我', null)).toBe(fileRequired);
  expect(problem('我', 3)).toBeNull();
}
