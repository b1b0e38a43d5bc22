import { beforeEach, describe, expect, it } from 'vitest';
import { CREATE_TEXT_KEY } from '../contract';
import { DraftStore, GUEST_OWNER, claimUserData, forgetUserData } from './draft-store';
import { LocalStorageService } from './storage';

const rules = { revive: (v: unknown) => (typeof v === 'string' ? v : null), keep: (d: string) => d, isEmpty: (d: string) => d === '' };

describe('drafts belong to the user who wrote them', () => {
  const storage = new LocalStorageService(globalThis.localStorage);
  const create = new DraftStore<string>(storage, 'create.draft', rules);
  const multiples = new DraftStore<string>(storage, 'multiples.draft', rules);
  beforeEach(() => localStorage.clear());

  it('keeps, reads back and clears a draft; an empty one is not stored', () => {
    create.save('大家好');
    expect(create.load()).toBe('大家好');
    create.save('');
    expect(create.load()).toBeNull();
  });

  it('logging out forgets every draft and the text a tool handed over, and nothing else', () => {
    claimUserData(storage, '13800000000');
    create.save('我的文案');
    multiples.save('多场景');
    storage.set(CREATE_TEXT_KEY, '聊天送来的');
    storage.set('theme', 'dark');
    forgetUserData(storage);
    expect([create.load(), multiples.load(), storage.get(CREATE_TEXT_KEY, null)]).toEqual([null, null, null]);
    expect(storage.get('theme', null)).toBe('dark');
  });

  it('the same user coming back (an expired session) finds them; another user does not', () => {
    claimUserData(storage, '13800000000');
    create.save('写了一半');
    claimUserData(storage, '13800000000');
    expect(create.load()).toBe('写了一半');
    claimUserData(storage, '13900000000');
    expect(create.load()).toBeNull();
  });

  it("a guest's drafts stay when the guest registers", () => {
    claimUserData(storage, GUEST_OWNER);
    create.save('游客写的');
    claimUserData(storage, '13700000000');
    expect(create.load()).toBe('游客写的');
  });
});
