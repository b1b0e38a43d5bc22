import { beforeEach, describe, expect, it } from 'vitest';
import { forgetUserData } from './draft-store';
import { LocalStorageService } from './storage';
import { openInOneclick, takeOneclickText } from './text-hand-off';

describe('a script handed to one-click creation', () => {
  const storage = new LocalStorageService(globalThis.localStorage);
  const navigated: [string, unknown][] = [];
  const navigation = { navigate: (path: string, query?: unknown) => void navigated.push([path, query]) };
  beforeEach(() => {
    localStorage.clear();
    navigated.length = 0;
  });

  it('opens /cozeVideo and is taken there once', () => {
    openInOneclick({ storage, navigation }, '你还在为皮肤干燥发愁吗？');
    expect(navigated.map(([path]) => path)).toEqual(['/cozeVideo']);
    expect(takeOneclickText(storage)).toBe('你还在为皮肤干燥发愁吗？');
    expect(takeOneclickText(storage)).toBeNull();
  });

  it('is forgotten with the drafts when the user logs out', () => {
    openInOneclick({ storage, navigation }, '别人的文案');
    forgetUserData(storage);
    expect(takeOneclickText(storage)).toBeNull();
  });
});
