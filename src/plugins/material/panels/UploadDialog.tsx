import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { UploadBox } from '../../../core';
import { UPLOAD_MAX_FILES, UPLOAD_RULES } from '../material-view';

/** Upload materials of one media type (every registered upload lands in the library as 我上传的). */
export function UploadDialog({ type, isOpen, onClose, onUploaded }: { type: 'video' | 'audio' | 'image'; isOpen: boolean; onClose: () => void; onUploaded: () => void }) {
  const rule = UPLOAD_RULES[type];
  const title = type === 'video' ? '视频' : type === 'audio' ? '音频' : '图片';
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={`上传${title}素材`} icon="cloud-upload" className="mt-dialog mt-upload-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <UploadBox
          type={rule.fileType}
          accept={rule.accept}
          maxFiles={UPLOAD_MAX_FILES}
          check={rule.check}
          onUploaded={onUploaded}
          hint={`${rule.hint}；一次最多 ${UPLOAD_MAX_FILES} 个`}
          data-testid="material-upload"
        />
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text="完成" onClick={onClose} data-testid="material-upload-done" />} />
    </Dialog>
  );
}
