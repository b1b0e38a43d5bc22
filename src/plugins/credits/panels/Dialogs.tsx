import { Suspense, useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { API, LIMITS, type Notice } from '../../../contract';
import { SafeHtml, TOKENS, formatDateTime, useAction, useObservable, useService, type ApiClient, type Remote } from '../../../core';
import { useCredits, useProfile } from './use-credits';
import { formatBalance, formatCredits } from '../format';
import '../credits.css';

/** 兑换积分: one code field, sent as typed (the server judges it, part 1 §5). */
export function RedeemDialog() {
  const { store, actions } = useCredits();
  const open = useObservable(store.redeemOpen$, false);
  const profile = useProfile();
  const [code, setCode] = useState('');
  const { busy, run } = useAction();

  useEffect(() => {
    if (open) setCode('');
  }, [open]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) void run(() => actions.redeem(code));
  };

  return (
    <Dialog isOpen={open} onClose={() => actions.closeRedeem()} title="兑换积分" icon="exchange" className="credits-dialog credits-redeem-dialog">
      <form onSubmit={submit} noValidate data-testid="redeem-form">
        <DialogBody>
          <p className="credits-muted credits-dialog-lead">
            当前积分 <strong className="credits-strong">{formatBalance(profile)}</strong>，输入兑换码后积分将立即到账。
          </p>
          <FormGroup label="兑换码" labelFor="redeem-code">
            <InputGroup id="redeem-code" size="large" leftIcon="key" value={code} onValueChange={setCode} placeholder="请输入兑换码" autoComplete="off" spellCheck={false} autoFocus />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={[
            <Button key="c" text="取消" onClick={() => actions.closeRedeem()} />,
            <Button key="s" type="submit" intent="primary" text="立即兑换" loading={busy} data-testid="redeem-submit" />,
          ]}
        />
      </form>
    </Dialog>
  );
}

/** 扩容 confirmation: states the price (part 1 §9); cancel says 已取消扩容. */
export function SpaceExpandDialog() {
  const { store, actions } = useCredits();
  const open = useObservable(store.expandOpen$, false);
  const profile = useProfile();
  const space = useObservable(store.space$, store.space$.value);
  const { busy, run } = useAction();
  const total = 'value' in space && space.value ? space.value.total_format : '';

  const confirm = () => {
    if (!busy) void run(() => actions.confirmExpand());
  };

  return (
    <Alert
      isOpen={open}
      icon="database"
      intent="primary"
      confirmButtonText="确认扩容"
      cancelButtonText="取消"
      loading={busy}
      onConfirm={confirm}
      onCancel={() => !busy && actions.cancelExpand()}
      className="credits-dialog credits-expand-alert"
    >
      <div data-testid="expand-confirm">
        <p className="credits-alert-title">扩容存储空间</p>
        <p>
          本次扩容 <strong className="credits-strong">{LIMITS.spaceExpandGb}GB</strong>，将消耗 <strong className="credits-strong">{formatCredits(LIMITS.spaceExpandCredits)}</strong> 积分，确定扩容吗？
        </p>
        <p className="credits-muted">
          当前积分 {formatBalance(profile)}
          {total && `，当前空间 ${total}`}
        </p>
      </div>
    </Alert>
  );
}

/** One notice: its operator HTML, sanitized. Opening it marks it read on the server. */
export function NoticeDialog() {
  const { store, actions } = useCredits();
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const id = useObservable(store.noticeDetail$, null);
  const [notice, setNotice] = useState<Remote<Notice>>({ state: 'idle' });

  useEffect(() => {
    if (id === null) return;
    let live = true;
    setNotice({ state: 'loading' });
    api
      .call(API.notice.detail, { id }, { silent: true })
      .then((n) => {
        if (!live) return;
        setNotice({ state: 'ok', value: n });
        actions.markRead(n.id);
      })
      .catch((err: Error) => live && setNotice({ state: 'error', message: err.message }));
    return () => {
      live = false;
    };
  }, [id, api, actions]);

  const title = notice.state === 'ok' ? notice.value.title : '公告';

  return (
    <Dialog
      isOpen={id !== null}
      onClose={() => actions.closeNotice()}
      onClosed={() => setNotice({ state: 'idle' })}
      title={title}
      icon="notifications"
      className="credits-dialog credits-notice-dialog"
    >
      <DialogBody className="credits-notice-body">
        {notice.state === 'ok' ? (
          <>
            <div className="credits-muted credits-notice-meta">{formatDateTime(notice.value.create_time)}</div>
            <Suspense fallback={<div className="credits-pop-loading"><Spinner size={24} /></div>}>
              <SafeHtml html={notice.value.content || notice.value.desc} className="credits-html credits-notice-content" />
            </Suspense>
          </>
        ) : notice.state === 'error' ? (
          <NonIdealState icon="warning-sign" title="公告加载失败" description={notice.message} />
        ) : (
          <div className="credits-pop-loading">
            <Spinner size={24} />
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text="知道了" intent="primary" onClick={() => actions.closeNotice()} />} />
    </Dialog>
  );
}
