import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { MSG, type Material, type MaterialType } from '../../../contract';
import { AudioPreview, TOKENS, VideoPlayer, useService, type Notifier } from '../../../core';

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
        {item && type === 'video' && <VideoPlayer key={item.id} src={item.url} poster={item.cover || undefined} autoPlay label={item.name} className="mt-preview-video" data-testid="material-video" />}
        {item && type === 'audio' && <AudioPreview id={item.id} src={item.url} className="mt-preview-audio" iconClassName="mt-audio-icon" testId="material-audio" />}
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

