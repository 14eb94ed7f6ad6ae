import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { M } from '@marquee/core';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenPlatformAdmin, startServer, type TestServer } from '../../test/harness.js';
import { buildZip, GOOD_TEMPLATE_FILES } from '../../test/fixtures/template-zips.js';
import { createS3Storage } from './storage-s3.js';

// The S3 driver against s3rver, a local S3-compatible server this test starts on a free port.

let s3: { close(): Promise<void> };
let endpoint: string;
let dir: string;
const bucket = 'marquee-test';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const address = (await server.run()) as { port: number };
  endpoint = `http://127.0.0.1:${address.port}`;
  s3 = server;
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const storageFor = (prefix = '') =>
  createS3Storage({ bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials, prefix, secret: 'test-secret-test-secret-test-secret-0123', publicBase: '', partBytes: 5 * 1024 * 1024 });

describe('S3 storage driver', () => {
  it('puts, gets, streams and deletes objects', async () => {
    const storage = storageFor('files');
    await storage.put('a/one.txt', Buffer.from('hello'), 'text/plain');
    expect(await storage.get('a/one.txt')).toEqual({ bytes: Buffer.from('hello'), contentType: 'text/plain' });
    const streamed = await storage.getStream('a/one.txt');
    expect(streamed?.size).toBe(5);
    const chunks: Buffer[] = [];
    for await (const c of streamed!.stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
    await storage.delete('a/one.txt');
    expect(await storage.get('a/one.txt')).toBeNull();
    expect(await storage.getStream('a/one.txt')).toBeNull();
    // Another prefix is another namespace.
    await storage.put('a/two.txt', Buffer.from('x'), 'text/plain');
    expect(await storageFor('elsewhere').get('a/two.txt')).toBeNull();
  });

  it('streams a small object in one PUT and a large one as a multipart upload', async () => {
    const storage = storageFor();
    await storage.putStream('small.bin', Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'application/octet-stream');
    expect((await storage.get('small.bin'))?.bytes.toString()).toBe('abcd');
    const part = Buffer.alloc(1024 * 1024, 1);
    const big = Array.from({ length: 12 }, (_, i) => Buffer.alloc(part.length, i));
    await storage.putStream('big.bin', Readable.from(big), 'application/zip');
    const got = await storage.get('big.bin');
    expect(got?.contentType).toBe('application/zip');
    expect(Buffer.compare(got!.bytes, Buffer.concat(big))).toBe(0);
  });

  it('leaves nothing behind when the source fails midway', async () => {
    const storage = storageFor();
    async function* failing() {
      yield Buffer.alloc(6 * 1024 * 1024);
      throw new Error('client went away');
    }
    await expect(storage.putStream('broken.bin', failing(), 'application/zip')).rejects.toThrow('client went away');
    expect(await storage.get('broken.bin')).toBeNull();
  });

  it('rejects unsafe keys', async () => {
    await expect(storageFor().put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe/);
  });
});

describe('the server with STORAGE_DRIVER=s3', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ storage: { driver: 's3', bucket, region: 'us-east-1', endpoint, forcePathStyle: true, prefix: 'app', credentials } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes a template zip into the bucket and downloads it back; a bad one stores nothing', async () => {
    const admin = server.client();
    await admin.login((await givenPlatformAdmin(server)).email);
    const created = await admin.post('/api/site/templates', { siteTemplateRequest: { name: 'On S3', description: 'Kept in a bucket' } });
    const zip = await buildZip(GOOD_TEMPLATE_FILES);
    const put = await server.client().put(created.body.postUrl, zip, { 'content-type': 'application/zip' });
    expect(put.body).toEqual({ success: true, version: 'v1' });
    const fetch = await admin.get(`/api/site/templates/${created.body.id}/v1`);
    const file = await server.client().get(fetch.body.result[0].fetchUrl);
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.raw, zip)).toBe(0);

    const again = await admin.put('/api/site/templates', { siteTemplateRequest: { templateId: created.body.id, name: 'On S3', description: 'x' } });
    const bad = await server.client().put(again.body.postUrl, await buildZip(GOOD_TEMPLATE_FILES.slice(1)), { 'content-type': 'application/zip' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(`${M.templateZipMissing} index.html`);
    expect((await admin.get(`/api/site/templates/${created.body.id}/versions`)).body.result).toHaveLength(1);
  });

  // The driver throws on an unsafe key (an invariant); the signed routes refuse one first, even validly signed.
  it('answers 404, not a 500, to a signed download or upload URL of an unsafe key', async () => {
    const storage = server.app.deps.storage;
    for (const [key, sent] of [
      ['a/../../escape', 'a/../../escape'],
      ['a/../escape', 'a/%2e%2e/escape'],
      ['a//escape', 'a//escape'],
    ] as const) {
      const get = await server.client().get(storage.downloadUrl(key, 60).replace(`/${key}?`, `/${sent}?`));
      expect(get.status, sent).toBe(404);
      const put = await server.client().put(storage.uploadUrl(key, { maxBytes: 100, types: ['image/png'] }).replace(`/${key}?`, `/${sent}?`), Buffer.from([0x89, 0x50, 0x4e, 0x47]), {
        'content-type': 'image/png',
      });
      expect(put.status, sent).toBe(404);
    }
  });
});
