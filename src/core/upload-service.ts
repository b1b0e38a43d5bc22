import { inject, injectable } from 'inversify';
import { Observable } from 'rxjs';
import { API, MSG, ResultCode, SNIFF_BYTES, TOKEN_HEADER, directUploadFields, sniffFormat } from '../contract';
import { ApiCallError, expireSession } from './api-client';
import {
  TOKENS, type ScreenServices, type UploadFileType, type UploadProgress, type UploadService,
} from './tokens';

/** The storage host's refusal `{ code, msg }`, when its body is one. */
function storageReply(body: string): { code: number; msg?: string } | undefined {
  try {
    const reply = JSON.parse(body) as { code?: unknown; msg?: unknown };
    return typeof reply.code === 'number' ? { code: reply.code, msg: typeof reply.msg === 'string' && reply.msg ? reply.msg : undefined } : undefined;
  } catch {
    return undefined;
  }
}

/** An upload the storage host refused or never answered: its message is for the user as it stands. */
export class UploadRefusedError extends Error {}

/**
 * What an S3-compatible bucket's XML refusal of a presigned POST means: too large (content-length-range), a type the
 * policy does not allow, an expired policy, or another code, named. Undefined when the body is not such a refusal.
 */
export function bucketRefusal(body: string): string | undefined {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (!code) return undefined;
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? '';
  if (code === 'EntityTooLarge') return MSG.bucketTooLarge;
  if (/policy expired/i.test(message) || code === 'ExpiredToken') return MSG.uploadExpired;
  if (/Content-Type/i.test(message)) return MSG.bucketTypeRefused;
  return MSG.bucketRefused(code);
}

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
  constructor(@inject(TOKENS.ScreenServices) private readonly s: ScreenServices) {}

  /**
   * What a refused transfer means: code 100 ends the session as on any call (part 2 §6); else our host's words, or
   * what a bucket's refusal means.
   */
  private refused(body: string): Error {
    const reply = storageReply(body);
    if (reply?.code === ResultCode.SessionExpired) {
      expireSession(this.s, reply.msg ?? MSG.sessionExpired);
      return new ApiCallError(reply.msg ?? MSG.sessionExpired, ResultCode.SessionExpired);
    }
    return new UploadRefusedError(reply?.msg ?? bucketRefusal(body) ?? MSG.uploadFailed);
  }

  upload(file: File, fileType: UploadFileType, extra: { duration?: number } = {}): Observable<UploadProgress> {
    return new Observable<UploadProgress>((subscriber) => {
      const xhr = new XMLHttpRequest();
      let cancelled = false;
      let opened = false;
      (async () => {
        // Nothing is sent that the server would refuse by its first bytes: say what is wrong with the file itself.
        if (file.size === 0) throw new UploadRefusedError(MSG.fileEmpty);
        if (!sniffFormat(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()))) throw new UploadRefusedError(MSG.fileUnrecognized(fileType));
        // The size lets a bucket's policy allow exactly this file (the server holds that much of the user's space).
        const sign = await this.s.api.call(API.upload.sign, { file_type: fileType, ...(file.size > 0 ? { size: file.size } : {}) });
        const key = uploadKey(sign.dir, file.name);
        const form = new FormData();
        for (const [name, value] of directUploadFields(sign, key)) form.set(name, value);
        form.set('file', file);
        await new Promise<void>((resolve, reject) => {
          xhr.open('POST', sign.host);
          opened = true;
          // Our own host needs the session; a bucket (a presigned POST, with its fields) gets only the signed form.
          const token = sign.fields ? null : this.s.tokens.get();
          if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
          xhr.upload.onprogress = (e) => subscriber.next({ loaded: e.loaded, total: e.total || file.size });
          // The storage host answers a refusal with { code, msg } (space full, expired policy): show its words.
          xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve() : reject(this.refused(xhr.responseText)));
          // No readable answer: our own host is down, or a bucket is unreachable or refuses this site by CORS.
          xhr.onerror = () => reject(new UploadRefusedError(sign.fields ? MSG.bucketUnreachable : MSG.uploadFailed));
          xhr.send(form);
        });
        if (cancelled) return;
        const url = `${sign.host.replace(/\/$/, '')}/${key}`;
        const done = await this.s.api.call(API.upload.complete, { file_type: fileType, size: file.size, url, name: file.name, ...extra });
        subscriber.next({ loaded: file.size, total: file.size, done });
        subscriber.complete();
      })().catch((err) => subscriber.error(err));
      return () => {
        cancelled = true;
        // A file refused by its first bytes never opened the request (some XHRs throw on abort before open).
        if (opened) xhr.abort();
      };
    });
  }
}
