import type { Profile } from '../../../contract';
import { TOKENS, useObservable, useService, type AuthService } from '../../../core';
import { CreditsActionsToken, CreditsStoreToken, type CreditsStore } from '../credits-state';
import type { CreditsActions } from '../credits-actions';

/** What every credits view reads and does: the plugin's store and its actions. */
export function useCredits(): { store: CreditsStore; actions: CreditsActions } {
  return { store: useService<CreditsStore>(CreditsStoreToken), actions: useService<CreditsActions>(CreditsActionsToken) };
}

/** The signed-in user's profile (balance, space, membership) as it changes; null until it is read. */
export function useProfile(): Profile | null {
  return useObservable(useService<AuthService>(TOKENS.AuthService).profile$, null);
}
