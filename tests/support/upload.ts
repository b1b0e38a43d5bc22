/** The browser's upload flow, done by a test: sign → multipart POST to the storage host → complete. */
import fs from 'node:fs';
import path from 'node:path';
import { API, TOKEN_HEADER, directUploadFields, type UploadFileType } from '../../src/contract';
import type { ApiTestClient, Reply } from './app';

export interface DirectResult {
  status: number;
  body: string;
  key: string;
  url: string;
}

export async function signUpload(client: ApiTestClient, type: UploadFileType) {
  const reply = await client.call(API.upload.sign, { file_type: type });
  if (reply.code !== 0) throw new Error(`sign: ${reply.msg}`);
  return reply.data as { host: string; dir: string; access_key_id: string; policy: string; signature: string };
}

export async function postToStorage(
  client: ApiTestClient,
  sign: { host: string; dir: string; access_key_id: string; policy: string; signature: string },
  bytes: Buffer,
  options: { key?: string; name?: string; token?: string } = {},
): Promise<DirectResult> {
  const ext = path.extname(options.name ?? 'file.bin');
  const key = options.key ?? `${sign.dir}${Date.now()}${Math.floor(Math.random() * 1e9)}${ext}`;
  const form = new FormData();
  for (const [name, value] of directUploadFields(sign, key)) form.set(name, value);
  form.set('file', new Blob([new Uint8Array(bytes)]), options.name ?? 'file.bin');
  const res = await fetch(`${client.url}${sign.host}`, { method: 'POST', body: form, headers: { [TOKEN_HEADER]: options.token ?? client.token! } });
  return { status: res.status, body: await res.text(), key, url: `${sign.host}/${key}` };
}

/** The whole flow; returns the complete call's reply (and the direct upload's when it failed first). */
export async function uploadFile(client: ApiTestClient, type: UploadFileType, file: string | Buffer, name?: string): Promise<Reply<any> & { direct?: DirectResult }> {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  const sign = await signUpload(client, type);
  const direct = await postToStorage(client, sign, bytes, { name: name ?? (typeof file === 'string' ? path.basename(file) : 'upload.bin') });
  if (direct.status >= 300) {
    const body = JSON.parse(direct.body) as { code: number; msg: string };
    return { status: direct.status, code: body.code, msg: body.msg, data: null, direct };
  }
  return { ...(await client.call(API.upload.complete, { file_type: type, size: bytes.length, url: direct.url })), direct };
}
