/**
 * The S3-compatible driver (AWS S3, MinIO, Alibaba OSS's and Tencent COS's S3 endpoints) on the official AWS SDK.
 * The bucket stays private: browsers upload with a presigned POST policy and read through presigned GETs that
 * live a few minutes; the server reads objects with ranged GETs and copies one to a temp file only for ffmpeg.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand,
  ListObjectsV2Command, S3Client, type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertObjectKey, contentTypeOf, type ObjectInfo, type PostPolicyLimits, type PresignedPost, type Storage, type StorageOrigins,
} from './storage';

export interface S3Settings {
  /** Empty for AWS itself (the SDK derives the regional endpoint). */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` (MinIO, most self-hosted servers) instead of `bucket.endpoint/key` (AWS, OSS, COS). */
  forcePathStyle: boolean;
  /**
   * A CDN or custom domain in front of the bucket (S3_PUBLIC_URL): browsers read `<publicUrl>/<key>`. The GET is
   * presigned for the bucket and only its base is swapped, so the CDN must pass the query on and reach the bucket
   * under the bucket's own host (the usual origin setup). Uploads still go to the bucket itself.
   */
  publicUrl?: string;
}

/** A presigned GET is made when a page asks for the object (our signed `/storage` URL redirects to it): minutes suffice. */
export const READ_URL_TTL_SECONDS = 300;

export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;
  /** Where the browser posts (the SDK's own endpoint rules: path-style or virtual-host), resolved once. */
  private postHost?: Promise<string>;

  constructor(private readonly settings: S3Settings) {
    const config: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Compatible servers (older MinIO, OSS, COS, s3rver) do not all speak the newer flexible checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (settings.endpoint) config.endpoint = settings.endpoint;
    this.client = new S3Client(config);
    this.bucket = settings.bucket;
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, body: Readable | Buffer): Promise<ObjectInfo> {
    assertObjectKey(key);
    // lib-storage sends small bodies in one PUT and streams of unknown length as a multipart upload.
    await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentTypeOf(key) } }).done();
    const info = await this.stat(key);
    if (!info) throw new Error(`object ${key} missing right after it was stored`);
    return info;
  }

  get(key: string, range?: { start: number; end: number }): Readable {
    assertObjectKey(key);
    // The interface hands a stream at once (as fs does); the request runs behind it and its failure ends the stream.
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
      .then((res) => pipeline(res.Body as Readable, out))
      .catch((err: unknown) => out.destroy(err as Error));
    return out;
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertObjectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** A server-side copy that sets the Content-Type of the new key, then the old one goes. */
  async move(from: string, to: string): Promise<void> {
    assertObjectKey(from);
    assertObjectKey(to);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
        MetadataDirective: 'REPLACE', ContentType: contentTypeOf(to),
      }),
    );
    await this.delete(from);
  }

  /** ffmpeg and ffprobe need a seekable file: the object is copied to a temp file for fn, which is removed after. */
  async withLocalFile<T>(key: string, fn: (file: string) => Promise<T>): Promise<T> {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'aisa-s3-'));
    const file = path.join(dir, `object${path.extname(key)}`);
    try {
      await pipeline(this.get(key), fs.createWriteStream(file));
      return await fn(file);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    const found: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) found.push({ key: o.Key, size: o.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async removeAll(prefix: string): Promise<void> {
    const keys = (await this.list(prefix)).map((o) => o.key);
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
    }
  }

  readonly canPresignPost = true;

  async presignPost(limits: PostPolicyLimits): Promise<PresignedPost> {
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      // The browser picks the file's name under dir; the policy holds it there.
      Key: `${limits.dir}\${filename}`,
      Conditions: [
        ['starts-with', '$key', limits.dir],
        ['content-length-range', 1, limits.maxBytes],
        ['starts-with', '$Content-Type', limits.typePrefix],
      ],
      Fields: { 'Content-Type': limits.contentType, success_action_status: '200' },
      Expires: limits.expiresSeconds,
    });
    const { key: _key, Policy: policy, 'X-Amz-Signature': signature, ...rest } = fields;
    return { host: url.replace(/\/+$/, ''), accessKeyId: this.settings.accessKeyId, policy: policy!, signature: signature!, fields: rest };
  }

  /** The bucket's base URL as the SDK addresses it: `endpoint/bucket` path-style, `https://bucket.host` otherwise. */
  private bucketBase(): Promise<string> {
    this.postHost ??= createPresignedPost(this.client, { Bucket: this.bucket, Key: 'x' }).then((p) => p.url.replace(/\/+$/, ''));
    return this.postHost;
  }

  async browserOrigins(): Promise<StorageOrigins> {
    const bucket = new URL(await this.bucketBase()).origin;
    return { reads: [this.settings.publicUrl ? new URL(this.settings.publicUrl).origin : bucket], uploads: [bucket] };
  }

  async keyOfPostedUrl(url: string): Promise<string | null> {
    const host = await this.bucketBase();
    if (!url.startsWith(`${host}/`)) return null;
    const key = url.slice(host.length + 1);
    return /[?#]/.test(key) ? null : key;
  }

  async readUrl(key: string, options: { download?: string; cacheControl: string }): Promise<string> {
    assertObjectKey(key);
    const signed = await getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket, Key: key, ResponseContentType: contentTypeOf(key), ResponseCacheControl: options.cacheControl,
        ResponseContentDisposition: options.download ? `attachment; filename="${options.download}"` : undefined,
      }),
      { expiresIn: READ_URL_TTL_SECONDS },
    );
    if (!this.settings.publicUrl) return signed;
    const base = await this.bucketBase();
    return signed.startsWith(`${base}/`) ? `${this.settings.publicUrl}${signed.slice(base.length)}` : signed;
  }
}

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};
