import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { LOGIN_ROUTE, MSG } from '../../../contract';
import { useObservable, useService, useScreenServices } from '../../../core';
import { PasswordDialogToken, type PasswordDialogState } from '../account-state';

/** Change password: the spec's four messages; on success the session ends and the user logs in again. */
export default function ChangePasswordDialog() {
  const state = useService<PasswordDialogState>(PasswordDialogToken);
  const { auth, notifier, navigation } = useScreenServices();
  const open = useObservable(state.open$, false);
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  const close = () => {
    state.close();
    setOld('');
    setPassword('');
    setConfirm('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem =
      (!oldPassword && MSG.oldPasswordRequired) ||
      (!password && MSG.newPasswordRequired) ||
      (!confirm && MSG.confirmPasswordRequired) ||
      (password !== confirm && MSG.passwordMismatch);
    if (problem) {
      notifier.warn(problem);
      return;
    }
    setBusy(true);
    try {
      const back = navigation.href();
      await auth.changePassword({ old_password: oldPassword, password, confirm });
      notifier.success(MSG.passwordChanged);
      close();
      navigation.navigate(LOGIN_ROUTE, { redirectUrl: back });
    } catch {
      /* the server's message was shown */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog isOpen={open} onClose={close} title="修改密码" icon="key" className="password-dialog">
      <form onSubmit={submit} noValidate>
        <DialogBody>
          <FormGroup label="原密码" labelFor="pwd-old">
            <InputGroup id="pwd-old" type="password" value={oldPassword} onValueChange={setOld} placeholder="请输入原密码" autoComplete="current-password" />
          </FormGroup>
          <FormGroup label="新密码" labelFor="pwd-new">
            <InputGroup id="pwd-new" type="password" value={password} onValueChange={setPassword} placeholder={MSG.passwordPlaceholder} autoComplete="new-password" />
          </FormGroup>
          <FormGroup label="确认新密码" labelFor="pwd-confirm">
            <InputGroup id="pwd-confirm" type="password" value={confirm} onValueChange={setConfirm} placeholder="请再次输入新密码" autoComplete="new-password" />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={[<Button key="c" text="取消" onClick={close} />, <Button key="s" type="submit" intent="primary" text="确认修改" loading={busy} data-testid="password-submit" />]} />
      </form>
    </Dialog>
  );
}
