import { lazy } from 'react';
import { ContainerModule } from 'inversify';
import { TOKENS, type DialogContribution, type TopBarContribution, type WorkbenchPlugin } from '../../core';
import { AccountActionsToken, PasswordDialogState, PasswordDialogToken } from './account-state';
import { AccountActions } from './account-commands';

const AccountMenu = lazy(() => import('./panels/AccountMenu'));
const ChangePasswordDialog = lazy(() => import('./panels/ChangePasswordDialog'));

export const plugin: WorkbenchPlugin = {
  id: 'account',
  module: new ContainerModule(({ bind }) => {
    bind(PasswordDialogToken).to(PasswordDialogState).inSingletonScope();
    bind(AccountActionsToken).to(AccountActions).inSingletonScope();
    bind(TOKENS.CommandContribution).toService(AccountActionsToken);
    bind<TopBarContribution>(TOKENS.TopBarContribution).toConstantValue({ id: 'account.menu', order: 100, component: AccountMenu });
    bind<DialogContribution>(TOKENS.DialogContribution).toConstantValue({ id: 'account.password', component: ChangePasswordDialog });
  }),
};
