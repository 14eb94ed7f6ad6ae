import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { createSignedUrls, isSafeKey, type Storage } from './storage.js';

// The S3-compatible driver (AWS S3, MinIO, R2, …) behind the same storage interface as local disk
// (STORAGE_DRIVER=s3; README's configuration table). The bucket stays private: the signed URLs are
// this server's (createSignedUrls), which read and write through this driver.

export type S3StorageOptions = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Objects under this prefix only ('' for the whole bucket). */
  prefix: string;
  secret: string;
  publicBase: string;
  /** Streams past this many bytes go up as a multipart upload of parts this size (S3's minimum part is 5 MiB). */
  partBytes?: number;
};

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

// The SDK is loaded on the first storage call, not at start: loading it cost about 0.1 to 0.2 s of
// every start, with or without S3 configured (bench/README.md "Start").
let sdk: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

export function createS3Storage(opts: S3StorageOptions): Storage {
  let made: Promise<{ client: S3Client; s3: typeof import('@aws-sdk/client-s3') }> | undefined;
  const connect = () =>
    (made ??= loadSdk().then((s3) => ({
      s3,
      client: new s3.S3Client({ region: opts.region, endpoint: opts.endpoint, forcePathStyle: opts.forcePathStyle, credentials: opts.credentials }),
    })));
  const Bucket = opts.bucket;
  const partBytes = Math.max(5 * 1024 * 1024, opts.partBytes ?? 8 * 1024 * 1024);
  const keyOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/${key}` : key;
  };

  async function open(key: string) {
    const { client, s3 } = await connect();
    try {
      return await client.send(new s3.GetObjectCommand({ Bucket, Key: keyOf(key) }));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  return {
    ...createSignedUrls(opts),
    async put(key, bytes, contentType) {
      const { client, s3 } = await connect();
      await client.send(new s3.PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentType: contentType, ContentLength: bytes.length }));
    },
    async get(key) {
      const object = await open(key);
      if (!object?.Body) return null;
      const bytes = Buffer.from(await object.Body.transformToByteArray());
      return { bytes, contentType: object.ContentType ?? 'application/octet-stream' };
    },
    async getStream(key) {
      const object = await open(key);
      if (!object?.Body) return null;
      return { stream: object.Body as Readable, contentType: object.ContentType ?? 'application/octet-stream', size: object.ContentLength ?? 0 };
    },
    async delete(key) {
      const { client, s3 } = await connect();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    // Holds at most one part in memory. A small object is one PUT; a large one a multipart upload,
    // which S3 shows to readers only once completed (and aborts on failure).
    async putStream(key, source, contentType) {
      const { client, s3 } = await connect();
      const Key = keyOf(key);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let uploadId: string | undefined;
      const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
      const flush = async () => {
        const Body = Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
        if (!uploadId) {
          const created = await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key, ContentType: contentType }));
          uploadId = created.UploadId;
        }
        const PartNumber = parts.length + 1;
        const res = await client.send(new s3.UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body, ContentLength: Body.length }));
        parts.push({ ETag: res.ETag, PartNumber });
      };
      try {
        for await (const chunk of source) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          pending.push(buf);
          pendingBytes += buf.length;
          if (pendingBytes >= partBytes) await flush();
        }
        if (!uploadId) {
          const Body = Buffer.concat(pending);
          await client.send(new s3.PutObjectCommand({ Bucket, Key, Body, ContentType: contentType, ContentLength: Body.length }));
          return;
        }
        if (pendingBytes > 0) await flush();
        await client.send(new s3.CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
      } catch (err) {
        if (uploadId) await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId })).catch(() => undefined);
        throw err;
      }
    },
  };
}
