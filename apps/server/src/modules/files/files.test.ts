import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.js';

// Signed, expiring URLs of the local storage driver: the `postUrl` / `fetchUrl` of the spec.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const storage = () => server.app.deps.storage;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of a png')]);
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('rest of a zip')]);
const GIF = Buffer.from('GIF89a....');
let n = 0;
const newKey = (ext: string) => `tests/${++n}/file.${ext}`;

const put = (url: string, bytes: Buffer, contentType: string) => server.client().put(url, bytes, { 'content-type': contentType });

/** Replaces one query parameter of a relative URL. */
function withParam(url: string, name: string, value: string) {
  const u = new URL(url, 'http://x');
  u.searchParams.set(name, value);
  return u.pathname + u.search;
}

describe('PUT /api/uploads/* (signed upload)', () => {
  it('stores bytes that match the grant, judged by content; the download URL serves them', async () => {
    const key = newKey('png');
    const url = storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] });
    expect(url.startsWith(`/api/uploads/${key}?`)).toBe(true);
    // Declared as octet-stream: the bytes decide.
    const res = await put(url, PNG, 'application/octet-stream');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });

    const got = await server.client().get(storage().downloadUrl(key));
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.raw.equals(PNG)).toBe(true);
    expect(await storage().get(key)).toEqual({ bytes: PNG, contentType: 'image/png' });
  });

  it('takes a zip for a zip grant (templates)', async () => {
    const key = newKey('zip');
    const res = await put(storage().uploadUrl(key, { maxBytes: 1000, types: ['application/zip'] }), ZIP, 'application/zip');
    expect(res.status).toBe(200);
    expect((await storage().get(key))?.contentType).toBe('application/zip');
  });

  it('refuses content the grant does not name, whatever its declared type, with 415', async () => {
    const key = newKey('png');
    const url = storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] });
    for (const [bytes, type] of [
      [GIF, 'image/gif'],
      [GIF, 'image/png'],
      [Buffer.from('<script>alert(1)</script>'), 'image/png'],
      [ZIP, 'application/zip'],
      [Buffer.from('plain words'), 'text/plain'],
      [Buffer.from('{"a":1}'), 'application/json'],
    ] as const) {
      const res = await put(url, bytes, type);
      expect(res.status, `${type} ${bytes.subarray(0, 6).toString()}`).toBe(415);
    }
    expect(await storage().get(key)).toBeNull();
  });

  it('refuses more bytes than granted with 413, and accepts exactly the limit', async () => {
    const key = newKey('png');
    const big = Buffer.concat([PNG, Buffer.alloc(100)]);
    const url = storage().uploadUrl(key, { maxBytes: big.length - 1, types: ['image/png'] });
    const res = await put(url, big, 'image/png');
    expect(res.status).toBe(413);
    expect(await storage().get(key)).toBeNull();
    expect((await put(storage().uploadUrl(key, { maxBytes: big.length, types: ['image/png'] }), big, 'image/png')).status).toBe(200);
  });

  it('refuses an empty upload', async () => {
    const url = storage().uploadUrl(newKey('png'), { maxBytes: 1000, types: ['image/png'] });
    const res = await put(url, Buffer.alloc(0), 'image/png');
    expect(res.status).toBe(400);
  });

  it('answers 404 to an unsigned, tampered, expired or download URL', async () => {
    const key = newKey('png');
    const url = storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] });
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const cases = {
      unsigned: `/api/uploads/${key}`,
      'no sig': withParam(url, 'sig', ''),
      'tampered sig': withParam(url, 'sig', `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`),
      'larger max': withParam(url, 'max', '999999999'),
      'other types': withParam(url, 'types', 'image/png,image/gif'),
      'later expiry': withParam(url, 'exp', String(Math.floor(Date.now() / 1000) + 999_999)),
      'another key': url.replace(key, newKey('png')),
      expired: storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] }, -1),
      'download URL': storage().downloadUrl(key),
      traversal: storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] }).replace(key, `tests/../../etc/${n}`),
    };
    for (const [what, u] of Object.entries(cases)) {
      const res = await put(u, PNG, 'image/png');
      expect(res.status, what).toBe(404);
    }
    expect(await storage().get(key)).toBeNull();
  });
});

describe('GET /api/files/* (signed download)', () => {
  it('answers 404 to an unsigned, tampered, expired, upload-signed or missing file', async () => {
    const key = newKey('png');
    await storage().put(key, PNG, 'image/png');
    const url = storage().downloadUrl(key, 60);
    expect((await server.client().get(url)).status).toBe(200);
    const sig = new URL(url, 'http://x').searchParams.get('sig')!;
    const cases = {
      unsigned: `/api/files/${key}`,
      'tampered sig': withParam(url, 'sig', `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`),
      'later expiry': withParam(url, 'exp', String(Math.floor(Date.now() / 1000) + 999_999)),
      expired: storage().downloadUrl(key, -1),
      'upload URL': storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] }).replace('/api/uploads/', '/api/files/'),
      missing: storage().downloadUrl(newKey('png')),
      'another key': url.replace(key, newKey('png')),
      traversal: `/api/files/tests/../../secret?exp=${Math.floor(Date.now() / 1000) + 60}&sig=${sig}`,
    };
    for (const [what, u] of Object.entries(cases)) {
      const res = await server.client().get(u);
      expect(res.status, what).toBe(404);
    }
  });

  it('tells browsers not to sniff and keeps it out of shared caches', async () => {
    const key = newKey('png');
    await storage().put(key, PNG, 'image/png');
    const res = await server.client().get(storage().downloadUrl(key));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/^private/);
  });
});

// The drivers throw on an unsafe key (storage.ts, storage-s3.ts: an invariant, a bug if reached).
// These routes are the only ones whose key comes from the request; every other key is built by
// the server from ids it has looked up. Even signed, an unsafe key is refused before the driver.
describe('unsafe keys through the signed routes', () => {
  const unsafe: Array<[string, string, string]> = [
    // [what, the key signed, the path as sent]
    ['traversal', 'tests/../../secret', 'tests/../../secret'],
    ['encoded traversal', 'tests/../../secret', 'tests/%2e%2e/%2E%2E/secret'],
    ['encoded slash', 'tests/../secret', 'tests%2f..%2fsecret'],
    ['dot segment', 'tests/./secret', 'tests/./secret'],
    ['empty segment', 'tests//secret', 'tests//secret'],
    ['backslashes', 'tests\\..\\secret', 'tests%5c..%5csecret'],
    ['leading dot', '.secret', '.secret'],
  ];
  const signed = (url: string, key: string, sent: string) => url.replace(`/${key}?`, `/${sent}?`);

  it('GET answers 404 even with a valid signature, never a 500', async () => {
    for (const [what, key, sent] of unsafe) {
      const url = signed(storage().downloadUrl(key, 60), key, sent);
      expect(url, what).toContain(`/api/files/${sent}?`);
      const res = await server.client().get(url);
      expect(res.status, what).toBe(404);
      expect(res.body.error.code, what).toBe('NOT_FOUND');
    }
  });

  it('PUT answers 404 even with a valid signature, and writes nothing', async () => {
    for (const [what, key, sent] of unsafe) {
      const url = signed(storage().uploadUrl(key, { maxBytes: 1000, types: ['image/png'] }), key, sent);
      expect(url, what).toContain(`/api/uploads/${sent}?`);
      const res = await put(url, PNG, 'image/png');
      expect(res.status, what).toBe(404);
      expect(res.body.error.code, what).toBe('NOT_FOUND');
    }
  });
});
