import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// The storage interface. Local disk is the default; URLs for it are signed with HMAC and expire.
// An S3 driver (presigned URLs) implements the same interface for production.
export type StoredObject = { bytes: Buffer; contentType: string };

export type UploadGrant = { maxBytes: number; types: string[] };

export type Storage = {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** Writes an object from a stream of chunks without holding it in memory; readers never see it half written. */
  putStream(key: string, source: AsyncIterable<string | Buffer>, contentType: string): Promise<void>;
  /** Opens an object for streaming, or null when it does not exist. */
  getStream(key: string): Promise<{ stream: Readable; contentType: string; size: number } | null>;
  /** A URL anyone holding it can GET until it expires. */
  downloadUrl(key: string, ttlSeconds?: number): string;
  /** A URL to PUT the object's bytes to, checked against the grant. */
  uploadUrl(key: string, grant: UploadGrant, ttlSeconds?: number): string;
  /** Checks a signed request; returns the grant for uploads, true for downloads, or null. */
  verify(kind: 'get' | 'put', key: string, query: Record<string, string | undefined>): UploadGrant | true | null;
};

const KEY_RE = /^[a-z0-9][a-z0-9/_.-]{0,300}$/i;

export function isSafeKey(key: string): boolean {
  return KEY_RE.test(key) && !key.split('/').some((part) => part === '..' || part === '.' || part === '');
}

/**
 * The signed, expiring URLs both drivers hand out: they point at this server's /api/files and
 * /api/uploads routes, which read and write through the driver. An S3 bucket thus stays private,
 * and uploads are checked (type by content, size) before they reach it.
 */
export function createSignedUrls(opts: { secret: string; publicBase: string }): Pick<Storage, 'downloadUrl' | 'uploadUrl' | 'verify'> {
  const sign = (text: string) => createHmac('sha256', opts.secret).update(text).digest('base64url');
  // Lengths compared in bytes, as timingSafeEqual compares: a signature of multi-byte characters
  // may have as many characters as a real one and still more bytes.
  const equal = (a: string, b: string) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  };
  return {
    downloadUrl(key, ttlSeconds = 3600) {
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      const sig = sign(`get\n${key}\n${exp}`);
      return `${opts.publicBase}/api/files/${key}?exp=${exp}&sig=${sig}`;
    },
    uploadUrl(key, grant, ttlSeconds = 900) {
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      const types = grant.types.join(',');
      const sig = sign(`put\n${key}\n${exp}\n${grant.maxBytes}\n${types}`);
      return `${opts.publicBase}/api/uploads/${key}?exp=${exp}&max=${grant.maxBytes}&types=${encodeURIComponent(types)}&sig=${sig}`;
    },
    verify(kind, key, q) {
      const exp = Number(q.exp);
      if (!isSafeKey(key) || !q.sig || !Number.isFinite(exp) || exp < Date.now() / 1000) return null;
      if (kind === 'get') return equal(q.sig, sign(`get\n${key}\n${exp}`)) ? true : null;
      const max = Number(q.max);
      const types = q.types ?? '';
      if (!Number.isFinite(max) || !equal(q.sig, sign(`put\n${key}\n${exp}\n${max}\n${types}`))) return null;
      return { maxBytes: max, types: types.split(',').filter(Boolean) };
    },
  };
}

export function createLocalStorage(opts: { root: string; secret: string; publicBase: string }): Storage {
  const fileOf = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(opts.root, key);
  };
  return {
    ...createSignedUrls(opts),
    async put(key, bytes, contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
      await writeFile(`${file}.type`, contentType);
    },
    async get(key) {
      try {
        const file = fileOf(key);
        const [bytes, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, 'utf8')]);
        return { bytes, contentType };
      } catch {
        return null;
      }
    },
    async putStream(key, source, contentType) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const part = `${file}.part`;
      try {
        await pipeline(source, createWriteStream(part));
        await writeFile(`${file}.type`, contentType);
        await rename(part, file);
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
    },
    async getStream(key) {
      try {
        const file = fileOf(key);
        const [info, contentType] = await Promise.all([stat(file), readFile(`${file}.type`, 'utf8')]);
        return { stream: createReadStream(file), contentType, size: info.size };
      } catch {
        return null;
      }
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      await rm(`${file}.type`, { force: true });
    },
  };
}
