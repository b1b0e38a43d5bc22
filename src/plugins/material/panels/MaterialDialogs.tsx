import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogBody, DialogFooter, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import { LIMITS, MSG, type Material, type MaterialType } from '../../../contract';
import { TOKENS, useService, type Notifier } from '../../../core';

/** Preview: a video or audio player, the image, or the whole text (with copy). */
export function PreviewDialog({ item, type, onClose }: { item: Material | null; type: MaterialType; onClose: () => void }) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(item?.text ?? '');
      notifier.success(MSG.copySucceeded);
    } catch {
      notifier.error(MSG.copyFailed);
    }
  };
  const icon = type === 'video' ? 'video' : type === 'audio' ? 'music' : type === 'image' ? 'media' : 'document';
  return (
    <Dialog isOpen={item !== null} onClose={onClose} title={item?.name ?? ''} icon={icon} className={`mt-preview-dialog ${type}`}>
      <DialogBody className="mt-preview-body">
        {item && type === 'video' && <video key={item.id} src={item.url} poster={item.cover || undefined} controls autoPlay playsInline className="mt-preview-video" data-testid="material-video" />}
        {item && type === 'audio' && (
          <div className="mt-preview-audio">
            <span className="mt-audio-icon">
              <Icon icon="music" size={28} />
            </span>
            <audio key={item.id} src={item.url} controls autoPlay data-testid="material-audio" />
          </div>
        )}
        {item && type === 'image' && <img src={item.url} alt={item.name} className="mt-preview-image" data-testid="material-image" />}
        {item && type === 'text' && (
          <div className="mt-preview-text" data-testid="material-text">
            {item.text || '（空白文本）'}
          </div>
        )}
      </DialogBody>
      {type === 'text' && (
        <DialogFooter actions={[<Button key="close" text="关闭" onClick={onClose} />, <Button key="copy" intent="primary" icon="duplicate" text="复制文本" onClick={() => void copy()} />]} />
      )}
    </Dialog>
  );
}

/** Rename a material; an empty name gets the spec's message (请填写名称后保存). */
export function RenameDialog({ item, onClose, onSave }: { item: Material | null; onClose: () => void; onSave: (item: Material, name: string) => Promise<boolean> }) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (item) setName(item.name);
  }, [item]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!item) return;
    if (!name.trim()) {
      notifier.warn(MSG.renameNameRequired);
      return;
    }
    setBusy(true);
    const ok = await onSave(item, name.trim());
    setBusy(false);
    if (ok) onClose();
  };

  return (
    <Dialog isOpen={item !== null} onClose={onClose} title="重命名素材" icon="edit" className="mt-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <FormGroup label="素材名称" labelFor="material-rename-input">
            <InputGroup id="material-rename-input" value={name} onValueChange={setName} maxLength={LIMITS.nameMaxChars} placeholder="请输入素材名称" autoFocus data-testid="material-rename-input" />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={[<Button key="c" text="取消" onClick={onClose} />, <Button key="s" type="submit" intent="primary" text="保存" loading={busy} data-testid="material-rename-save" />]} />
      </form>
    </Dialog>
  );
}
