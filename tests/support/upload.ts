/** The browser's upload flow, done by a test: sign → multipart POST to the storage host → complete. */
import fs from 'node:fs';
import path from 'node:path';
import { API, TOKEN_HEADER, directUploadFields, type UploadFileType, type UploadSignature } from '../../src/contract';
import type { ApiTestClient, Reply } from './app';

export interface DirectResult {
  status: number;
  body: string;
  key: string;
  url: string;
}

/** The sign call (with the file's size, as the browser sends it), or its refusal. */
async function trySign(client: ApiTestClient, type: UploadFileType, size?: number): Promise<Reply<UploadSignature>> {
  return client.call(API.upload.sign, { file_type: type, ...(size ? { size } : {}) });
}

export async function signUpload(client: ApiTestClient, type: UploadFileType, size?: number): Promise<UploadSignature> {
  const reply = await trySign(client, type, size);
  if (reply.code !== 0) throw new Error(`sign: ${reply.msg}`);
  return reply.data;
}

/** Posts the form as the browser does: to our own host with the session header, to a bucket (absolute host) without. */
export async function postToStorage(
  client: ApiTestClient,
  sign: UploadSignature,
  bytes: Buffer,
  options: { key?: string; name?: string; token?: string } = {},
): Promise<DirectResult> {
  const ext = path.extname(options.name ?? 'file.bin');
  const key = options.key ?? `${sign.dir}${Date.now()}${Math.floor(Math.random() * 1e9)}${ext}`;
  const form = new FormData();
  for (const [name, value] of directUploadFields(sign, key)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(bytes)]), options.name ?? 'file.bin');
  const bucket = Boolean(sign.fields);
  const res = await fetch(bucket ? sign.host : `${client.url}${sign.host}`, { method: 'POST', body: form, headers: bucket ? {} : { [TOKEN_HEADER]: options.token ?? client.token! } });
  return { status: res.status, body: await res.text(), key, url: `${sign.host}/${key}` };
}

/** The whole flow; returns the complete call's reply (and the direct upload's when it failed first). */
export async function uploadFile(client: ApiTestClient, type: UploadFileType, file: string | Buffer, name?: string): Promise<Reply<any> & { direct?: DirectResult }> {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  const signed = await trySign(client, type, bytes.length);
  if (signed.code !== 0) return signed;
  const direct = await postToStorage(client, signed.data, bytes, { name: name ?? (typeof file === 'string' ? path.basename(file) : 'upload.bin') });
  if (direct.status >= 300) {
    // Our host answers { code, msg }; a bucket answers S3's XML error.
    const body = direct.body.startsWith('{') ? (JSON.parse(direct.body) as { code: number; msg: string }) : { code: 1, msg: direct.body };
    return { status: direct.status, code: body.code, msg: body.msg, data: null, direct };
  }
  return { ...(await client.call(API.upload.complete, { file_type: type, size: bytes.length, url: direct.url })), direct };
}
