import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract';
import { PERSON_LIBRARY, PET_LIBRARY, canDelete, establishQuery, opensUpload, uploadProblem } from './photo-view';

describe('the picture libraries', () => {
  it('checks the upload dialog in the spec’s order and words, per library', () => {
    expect(uploadProblem(PET_LIBRARY, { name: ' ', fileId: null })).toBe(MSG.petNameRequired);
    expect(uploadProblem(PET_LIBRARY, { name: '旺财', fileId: null })).toBe(MSG.petImageRequired);
    expect(uploadProblem(PERSON_LIBRARY, { name: '', fileId: 3 })).toBe(MSG.personNameRequired);
    expect(uploadProblem(PERSON_LIBRARY, { name: '小美', fileId: null })).toBe(MSG.personImageRequired);
    expect(uploadProblem(PERSON_LIBRARY, { name: '小美', fileId: 3 })).toBeNull();
  });

  it('opens the upload dialog for any ?type, leads create-video to its screen, deletes only my own', () => {
    expect(opensUpload({ type: '1' })).toBe(true);
    expect(opensUpload({ type: '' })).toBe(true);
    expect(opensUpload({})).toBe(false);
    expect(PET_LIBRARY.establish).toBe('/pet/establish');
    expect(PERSON_LIBRARY.establish).toBe('/store/characters');
    expect(establishQuery({ id: 5, source: 2 })).toEqual({ id: 5, source: 2 });
    expect(canDelete({ source: 1 })).toBe(true);
    expect(canDelete({ source: 2 })).toBe(false);
  });
});
