import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('redirect after login', () => {
  it.each([
    ['/works?type1=1', '/works?type1=1'],
    [undefined, '/home'],
    ['', '/home'],
    ['//evil.example/x', '/home'],
    ['https://evil.example', '/home'],
    ['/\\evil', '/home'],
    ['javascript:alert(1)', '/home'],
    ['/login?redirectUrl=/x', '/home'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirect(input)).toBe(expected);
  });
});
