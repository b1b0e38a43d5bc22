import { useService } from '../../../core';
import { CreditsActionsToken, CreditsStoreToken, type CreditsStore } from '../credits-state';
import type { CreditsActions } from '../credits-actions';

/** What every credits view reads and does: the plugin's store and its actions. */
export function useCredits(): { store: CreditsStore; actions: CreditsActions } {
  return { store: useService<CreditsStore>(CreditsStoreToken), actions: useService<CreditsActions>(CreditsActionsToken) };
}
