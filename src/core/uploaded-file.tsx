import type { ReactNode } from 'react';
import { Button, FormGroup, Icon } from '@blueprintjs/core';
import type { UploadedFile } from './upload-box';
import { formatDuration, formatSize, metaLine } from './format';

/** An uploaded file's name and size (with its length when known), as `<prefix>-name` and `<prefix>-size` spans. */
export function UploadedFileLabel({ file, classPrefix }: { file: UploadedFile; classPrefix: string }) {
  return (
    <>
      <span className={`${classPrefix}-name`} title={file.file.name}>
        {file.file.name}
      </span>
      <span className={`${classPrefix}-size`}>{metaLine(formatSize(file.file.size), formatDuration(file.duration))}</span>
    </>
  );
}

/**
 * A clone dialog's one file (the avatar's video, the voice's sample): the upload box until a file is up, then its
 * player, a tick with its name and size, 重新上传 and what `note` adds (a warning). Classes `<prefix>-upload-group` and
 * `<prefix>-preview…`; test ids `<testId>-preview` and `<testId>-reupload`.
 */
export function OneFileUpload<F extends UploadedFile>(props: {
  label: string;
  classPrefix: string;
  testId: string;
  uploadBox: ReactNode;
  file: F | null;
  player: (file: F) => ReactNode;
  onReupload: () => void;
  note?: ReactNode;
}) {
  const { classPrefix: prefix, file } = props;
  return (
    <FormGroup label={props.label} labelInfo="(1 个文件)" className={`${prefix}-upload-group`}>
      {file ? (
        <div className={`${prefix}-preview`} data-testid={`${props.testId}-preview`}>
          {props.player(file)}
          <div className={`${prefix}-preview-bar`}>
            <div className={`${prefix}-preview-meta`}>
              <Icon icon="tick-circle" intent="success" />
              <UploadedFileLabel file={file} classPrefix={`${prefix}-preview`} />
            </div>
            <Button size="small" icon="refresh" text="重新上传" onClick={props.onReupload} data-testid={`${props.testId}-reupload`} />
          </div>
          {props.note}
        </div>
      ) : (
        props.uploadBox
      )}
    </FormGroup>
  );
}
