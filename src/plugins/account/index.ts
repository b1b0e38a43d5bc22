import { lazyChunk, definePlugin } from '../../core';
import { AccountActionsToken, PasswordDialogState, PasswordDialogToken } from './account-state';
import { AccountActions } from './account-commands';

const AccountMenu = lazyChunk(() => import('./panels/AccountMenu'));
const ChangePasswordDialog = lazyChunk(() => import('./panels/ChangePasswordDialog'));

export const plugin = definePlugin('account', {
  services: [[PasswordDialogToken, PasswordDialogState], [AccountActionsToken, AccountActions]],
  commands: AccountActionsToken,
  topBar: [{ id: 'account.menu', order: 100, component: AccountMenu }],
  dialogs: [{ id: 'account.password', component: ChangePasswordDialog }],
});
