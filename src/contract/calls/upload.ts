/**
 * Uploads (part 1 §3, §7; part 2 §7): signature → direct POST to storage → register.
 * The voice-clone audio has its own multipart endpoint.
 */
import { z } from 'zod';
import { defineGroup, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { int, num, oneOf, requiredText, text } from '../schema';
import { multipartCall } from './fields';

export const UPLOAD_FILE_TYPES = ['video', 'voice', 'image'] as const;
export type UploadFileType = (typeof UPLOAD_FILE_TYPES)[number];

/** POST policy for a direct browser upload (S3/OSS style, or our own local-disk endpoint). */
export const UploadSignature = z.object({
  /** Where the browser POSTs the form. */
  host: z.string(),
  /** Server-made key prefix; the key is dir + timestamp + random number + extension. */
  dir: z.string(),
  access_key_id: z.string(),
  policy: z.string(),
  signature: z.string(),
  /**
   * ours: with S3-compatible storage, the further form fields its presigned POST names (x-amz-algorithm,
   * x-amz-credential, x-amz-date, Content-Type, success_action_status); absent for the server's own host.
   */
  fields: z.record(z.string(), z.string()).optional(),
});
export type UploadSignature = z.infer<typeof UploadSignature>;

/** The form fields of a direct upload, in order (the file goes last, as S3 and OSS require). */
export function directUploadFields(sign: UploadSignature, key: string): [string, string][] {
  // S3 (SigV4): the policy's own fields; the signature goes as x-amz-signature and no access key id field.
  if (sign.fields) return [['key', key], ...Object.entries(sign.fields), ['policy', sign.policy], ['x-amz-signature', sign.signature]];
  return [
    ['key', key],
    ['policy', sign.policy],
    ['OSSAccessKeyId', sign.access_key_id],
    ['signature', sign.signature],
    ['success_action_status', '200'],
  ];
}

/** A registered file (part 1 §3). */
export const RegisteredFile = z.object({ file_id: z.number(), url: z.string() });
export type RegisteredFile = z.infer<typeof RegisteredFile>;

const MAX_BYTES: Record<UploadFileType, number> = {
  video: LIMITS.video.maxBytes,
  voice: LIMITS.audio.maxBytes,
  image: LIMITS.image.maxBytes,
};
const TOO_LARGE: Record<UploadFileType, string> = {
  video: MSG.extractVideoInvalid,
  voice: MSG.audioTooLarge(LIMITS.audio.maxBytes / 1024 / 1024),
  image: MSG.imageTooLarge,
};
const MAX_SECONDS = Math.max(LIMITS.video.maxSeconds, LIMITS.audio.maxSeconds);

export const uploadCalls = defineGroup('upload', {
  sign: specCall('GET', '/api/upload/sign', {
    summary: 'Upload signature for one direct upload of the given file type (key prefix and size range enforced by the policy).',
    request: z.object({
      file_type: oneOf('文件类型', UPLOAD_FILE_TYPES),
      /** ours: the file's size; with S3 storage the policy allows at most this (and the user's free space). */
      size: int('文件大小', 1, LIMITS.video.maxBytes).optional(),
    }),
    response: UploadSignature,
  }),
  direct: multipartCall('/storage', {
    summary:
      'ours: the local-disk storage target that `host` points at when no S3-compatible storage is configured. Unchecked multipart ' +
      'form: key, policy, OSSAccessKeyId, signature, success_action_status, file; x-token header. Verifies the policy like S3/OSS ' +
      'would (key prefix, content-length-range, expiry), stores the file, answers 204. Request schema is empty: the form is multipart.',
    response: z.object({}),
  }),
  complete: specCall('POST', '/api/upload/complete', {
    summary:
      'Register an uploaded file (the server checks it by content: ffprobe / magic bytes) → {file_id, url}. duration is sent for translation videos.',
    request: z
      .object({
        file_type: oneOf('文件类型', UPLOAD_FILE_TYPES),
        size: int('文件大小', 1, LIMITS.video.maxBytes),
        duration: num('时长', 0, MAX_SECONDS).optional(),
        url: requiredText('文件地址', MSG.uploadFailed, 1000),
        /** ours: the file's name on the user's device, kept as the material's name. */
        name: text('文件名', 100).optional(),
      })
      .superRefine((v, ctx) => {
        if (v.size > MAX_BYTES[v.file_type]) ctx.addIssue({ code: 'custom', message: TOO_LARGE[v.file_type], path: ['size'] });
      }),
    response: RegisteredFile,
  }),
  voice: multipartCall('/api/upload/voice', {
    summary:
      `ours path (spec: "voice audio upload endpoint, path not shown"): unchecked multipart form with one field \`file\` (mp3/m4a/wav, ` +
      `${LIMITS.audio.minSeconds} s to ${LIMITS.audio.maxSeconds / 60} min, at most ${LIMITS.audio.maxBytes / 1024 / 1024} MB) and the x-token header; ` +
      'registers the audio like upload.complete and answers the plain (unsealed) reply { code, msg, data: {file_id, url} }. Request schema is empty: the form is multipart.',
    response: RegisteredFile,
  }),
});
