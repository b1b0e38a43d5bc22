/** The studio's editing actions over the draft: roles (voice, name, settings) and dialogue lines (the one being edited). */
import { useCallback, useMemo, useState } from 'react';
import type { Voice } from '../../contract';
import {
  addLine, addRole, moveLine, removeLine, removeRole, renameRole, resetRoleSliders, setLinePause, setLineRole, setLineText, setRoleEmotion,
  setRoleSlider, setRoleVoice,
} from './dub-draft';
import type { DubbingState } from './dubbing-state';
import type { LineActions } from './DialogueLines';
import type { RoleActions } from './RoleCards';

export function useDubEditing(state: DubbingState) {
  const [activeId, setActiveId] = useState<string | null>(null);

  const lineActions = useMemo<LineActions>(
    () => ({
      activate: setActiveId,
      setText: (id, text) => state.update((d) => setLineText(d, id, text)),
      setRole: (id, roleId) => state.update((d) => setLineRole(d, id, roleId)),
      setPause: (id, seconds) => state.update((d) => setLinePause(d, id, seconds)),
      preview: (id) => void state.preview(id),
      move: (id, delta) => state.update((d) => moveLine(d, id, delta)),
      insertAfter: (id) => {
        const { draft, id: added } = addLine(state.draft, id || undefined);
        state.update(() => draft);
        if (added) setActiveId(added);
      },
      remove: (id) => state.update((d) => removeLine(d, id)),
    }),
    [state],
  );

  const roleActions = useCallback(
    (pickVoice: (roleId: string) => void): RoleActions => ({
      pickVoice,
      rename: (id, name) => state.update((d) => renameRole(d, id, name)),
      setSlider: (id, key, value) => state.update((d) => setRoleSlider(d, id, key, value)),
      resetSliders: (id) => state.update((d) => resetRoleSliders(d, id)),
      setEmotion: (id, emotion) => state.update((d) => setRoleEmotion(d, id, emotion)),
      remove: (id) => state.update((d) => removeRole(d, id)),
      add: () => state.update(addRole),
    }),
    [state],
  );

  const setVoice = useCallback((roleId: string, voice: Voice) => state.update((d) => setRoleVoice(d, roleId, voice)), [state]);

  return { activeId, lineActions, roleActions, setVoice };
}
