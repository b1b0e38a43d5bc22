import { inject, injectable } from 'inversify';
import { Observable } from 'rxjs';
import { API, MSG, TOKEN_HEADER, directUploadFields } from '../contract';

function storageMessage(body: string): string | undefined {
  try {
    const msg = (JSON.parse(body) as { msg?: unknown }).msg;
    return typeof msg === 'string' && msg ? msg : undefined;
  } catch {
    return undefined;
  }
}
import { TOKENS, type ApiClient, type TokenStore, type UploadFileType, type UploadProgress, type UploadService } from './tokens';

/** Storage key = dir + timestamp + random number + extension (part 1 §3). */
export function uploadKey(dir: string, fileName: string, now = Date.now()): string {
  const ext = /\.[A-Za-z0-9]{1,8}$/.exec(fileName)?.[0].toLowerCase() ?? '';
  return `${dir}${now}${Math.floor(Math.random() * 1e9)}${ext}`;
}

/**
 * The spec's upload flow: ask for a signature, post the file straight to the storage host with progress
 * (XHR, since fetch has no upload progress), then register it. Unsubscribing aborts the transfer.
 */
@injectable()
export class DirectUploadService implements UploadService {
  constructor(
    @inject(TOKENS.ApiClient) private readonly api: ApiClient,
    @inject(TOKENS.TokenStore) private readonly tokens: TokenStore,
  ) {}

  upload(file: File, fileType: UploadFileType, extra: { duration?: number } = {}): Observable<UploadProgress> {
    return new Observable<UploadProgress>((subscriber) => {
      const xhr = new XMLHttpRequest();
      let cancelled = false;
      (async () => {
        const sign = await this.api.call(API.upload.sign, { file_type: fileType });
        const key = uploadKey(sign.dir, file.name);
        const form = new FormData();
        for (const [name, value] of directUploadFields(sign, key)) form.set(name, value);
        form.set('file', file);
        await new Promise<void>((resolve, reject) => {
          xhr.open('POST', sign.host);
          const token = this.tokens.get();
          if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
          xhr.upload.onprogress = (e) => subscriber.next({ loaded: e.loaded, total: e.total || file.size });
          // The storage host answers a refusal with { code, msg } (space full, expired policy): show its words.
          xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(new Error(storageMessage(xhr.responseText) ?? MSG.uploadFailed)));
          xhr.onerror = () => reject(new Error('upload failed'));
          xhr.send(form);
        });
        if (cancelled) return;
        const url = `${sign.host.replace(/\/$/, '')}/${key}`;
        const done = await this.api.call(API.upload.complete, { file_type: fileType, size: file.size, url, name: file.name, ...extra });
        subscriber.next({ loaded: file.size, total: file.size, done });
        subscriber.complete();
      })().catch((err) => subscriber.error(err));
      return () => {
        cancelled = true;
        xhr.abort();
      };
    });
  }
}
