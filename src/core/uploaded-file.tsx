import type { UploadedFile } from './upload-box';
import { formatDuration, formatSize } from './format';

/** An uploaded file's name and size (with its length when known), as `<prefix>-name` and `<prefix>-size` spans. */
export function UploadedFileLabel({ file, classPrefix }: { file: UploadedFile; classPrefix: string }) {
  return (
    <>
      <span className={`${classPrefix}-name`} title={file.file.name}>
        {file.file.name}
      </span>
      <span className={`${classPrefix}-size`}>
        {formatSize(file.file.size)}
        {file.duration ? ` · ${formatDuration(file.duration)}` : ''}
      </span>
    </>
  );
}
