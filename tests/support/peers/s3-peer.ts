/**
 * An S3 protocol server on loopback (the `s3rver` package): a real bucket over the real S3 REST API, with the
 * browser-facing CORS rule a deployment needs for direct uploads. What it does not check (SigV4 signatures, POST
 * policy conditions) is said in the README; our tests check the policy's content themselves.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { S3Settings } from '../../../server/infra/storage-s3';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

/** Browsers may POST (direct uploads) and GET (presigned reads) from any origin, as the README tells operators to set. */
const CORS = `<CORSConfiguration><CORSRule>
  <AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>
  <AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

export interface S3Peer {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's settings for this bucket (path-style, as for MinIO). */
  settings: S3Settings;
  /** The environment a server process needs to use this bucket. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3Peer(bucket = 'aisa-test'): Promise<S3Peer> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-s3-peer-'));
  const server = new S3rver({
    address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true,
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = { endpoint, bucket, region: 'us-east-1', accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY, forcePathStyle: true };
  return {
    endpoint, bucket, region: settings.region, accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY, settings,
    env: {
      STORAGE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: ACCESS_KEY, S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      server.httpServer?.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
