import { crc32, deflateSync } from 'node:zlib';
import { birthDateBounds, M } from '@marquee/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenUser, notFoundError, startServer, validationError, type Client, type GivenUser, type TestServer } from '../../../test/harness.js';
import { users } from '../../db/schema/index.js';

let server: TestServer;
let me: GivenUser;
let c: Client;
beforeAll(async () => {
  server = await startServer();
  me = await givenUser(server);
  c = server.client();
  await c.login(me.email);
});
afterAll(async () => {
  await server.close();
});

// ---- real image bytes, made here ----------------------------------------------------------------

function pngChunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid 2x2 RGB PNG. */
function png(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** JPEG start-of-image, a JFIF APP0 segment and end-of-image: what the server judges by. */
function jpeg(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
  ]);
}

const gif = () => Buffer.concat([Buffer.from('GIF89a', 'ascii'), Buffer.from([1, 0, 1, 0, 0, 0, 0, 0x3b])]);

// ---- profile -----------------------------------------------------------------------------

describe('GET /api/users/:userId/profile', () => {
  it('returns one’s own profile with every spec field', async () => {
    const res = await c.get(`/api/users/${me.id}/profile`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: me.id,
      email: me.email,
      firstName: 'Test',
      lastName: 'User',
      contactNumber: null,
      birthDate: null,
      address1: null,
      address2: null,
      city: null,
      state: null,
      zip: null,
      country: null,
      profile: null,
    });
  });

  it('answers 404 for another user’s id, an unknown id and a malformed id', async () => {
    const other = await givenUser(server);
    for (const id of [other.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const get = await c.get(`/api/users/${id}/profile`);
      expect(get.status, id).toBe(404);
      expect(get.body.error.message).toBe(M.notFound);
      const patch = await c.patch(`/api/users/${id}/profile`, { city: 'Hijacked' });
      expect(patch.status, id).toBe(404);
    }
    const [row] = await server.app.deps.db.select().from(users).where(eq(users.id, other.id));
    expect(row!.city).toBeNull();
  });

  it('needs a session', async () => {
    expect((await server.client().get(`/api/users/${me.id}/profile`)).status).toBe(401);
    expect((await server.client().patch(`/api/users/${me.id}/profile`, { city: 'X' })).status).toBe(401);
  });
});

describe('PATCH /api/users/:userId/profile', () => {
  it('saves the fields and normalises the phone', async () => {
    const { max } = birthDateBounds();
    const res = await c.patch(`/api/users/${me.id}/profile`, {
      firstName: 'Ada',
      lastName: "O'Neil-Smith",
      contactNumber: '+1 (555) 123 4567',
      birthDate: max,
      address1: '1 Main St',
      address2: 'Apt 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Ada',
      lastName: "O'Neil-Smith",
      contactNumber: '+15551234567',
      birthDate: max,
      address1: '1 Main St',
      address2: 'Apt 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    });
    expect((await c.get(`/api/users/${me.id}/profile`)).body).toEqual(res.body);
  });

  it('writes only the fields sent', async () => {
    const user = await givenUser(server);
    const u = server.client();
    await u.login(user.email);
    await u.patch(`/api/users/${user.id}/profile`, { city: 'Before', country: 'US', contactNumber: '+1 (555) 222 3333', birthDate: '1990-01-02' });
    // Someone else changes a field meanwhile (another tab): a PATCH of one field must not undo it.
    await server.app.deps.db.update(users).set({ lastName: 'Changed', zip: '11111' }).where(eq(users.id, user.id));
    const res = await u.patch(`/api/users/${user.id}/profile`, { city: 'After' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      city: 'After',
      country: 'US',
      lastName: 'Changed',
      zip: '11111',
      firstName: 'Test',
      contactNumber: '+15552223333',
      birthDate: '1990-01-02',
    });
  });

  it('clears a field sent as null, and the phone sent as empty', async () => {
    await c.patch(`/api/users/${me.id}/profile`, { address2: 'Somewhere', contactNumber: '+1 (555) 765 4321' });
    const res = await c.patch(`/api/users/${me.id}/profile`, { address2: null, contactNumber: '' });
    expect(res.status).toBe(200);
    expect(res.body.address2).toBeNull();
    expect(res.body.contactNumber).toBeNull();
  });

  const bounds = birthDateBounds();
  const dayBefore = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

  it.each([
    [{ firstName: '' }, 'firstName', M.firstNameRequired],
    [{ firstName: '   ' }, 'firstName', M.firstNameRequired],
    [{ lastName: '' }, 'lastName', M.lastNameRequired],
    [{ firstName: 'Ada1' }, 'firstName', M.invalidFormat],
    [{ firstName: 'Ada  Lovelace' }, 'firstName', M.invalidFormat],
    [{ lastName: 'L@ce' }, 'lastName', M.invalidFormat],
    [{ lastName: '-Lace' }, 'lastName', M.invalidFormat],
    [{ contactNumber: '+1 (555) 123' }, 'contactNumber', M.phoneIncomplete],
    [{ contactNumber: '+1 (555) 123 45678' }, 'contactNumber', M.phoneIncomplete],
    [{ birthDate: dayAfter(bounds.max) }, 'birthDate', M.birthDateRange],
    [{ birthDate: new Date().toISOString().slice(0, 10) }, 'birthDate', M.birthDateRange],
    [{ birthDate: dayBefore(bounds.min) }, 'birthDate', M.birthDateRange],
    [{ birthDate: '1990-13-45' }, 'birthDate', M.birthDateRange],
    [{ birthDate: '01/02/1990' }, 'birthDate', M.birthDateRange],
    [{ birthDate: '1990-02-30' }, 'birthDate', M.birthDateRange],
    [{ zip: '123456' }, 'zip', M.zipMax],
  ])('refuses %o with the spec message and saves nothing', async (body, field, message) => {
    const before = (await c.get(`/api/users/${me.id}/profile`)).body;
    const res = await c.patch(`/api/users/${me.id}/profile`, { city: 'Unsaved', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.fields[field]).toBe(message);
    expect((await c.get(`/api/users/${me.id}/profile`)).body).toEqual(before);
  });

  it('accepts the birth date bounds themselves: 100 years ago and yesterday', async () => {
    expect((await c.patch(`/api/users/${me.id}/profile`, { birthDate: bounds.min })).status).toBe(200);
    expect((await c.patch(`/api/users/${me.id}/profile`, { birthDate: bounds.max })).status).toBe(200);
    expect((await c.patch(`/api/users/${me.id}/profile`, { zip: '12345' })).status).toBe(200);
  });

  it('refuses fields that are not the profile’s (e-mail, status, picture key)', async () => {
    for (const body of [{ email: 'new@example.test' }, { status: 'ACTIVE' }, { pictureKey: 'users/x.png' }, { id: 'x' }]) {
      const res = await c.patch(`/api/users/${me.id}/profile`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await c.get(`/api/users/${me.id}/profile`)).body.email).toBe(me.email);
  });
});

// ---- picture -------------------------------------------------------------------------------

describe('POST /api/users/:userId/picture', () => {
  it('accepts a PNG and serves it back from the signed `profile` URL', async () => {
    const bytes = png();
    const res = await c.upload(`/api/users/${me.id}/picture`, 'file', 'me.png', bytes, 'image/png');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(me.id);
    const url = new URL(res.body.profile, 'http://x');
    expect(url.pathname).toMatch(new RegExp(`^/api/files/users/${me.id}/`));
    expect(url.searchParams.get('sig')).toBeTruthy();

    // Anyone holding the URL may fetch it (an <img> sends no CSRF header); no session needed.
    const img = await server.client().get(res.body.profile);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(img.raw.equals(bytes)).toBe(true);

    expect((await c.get(`/api/users/${me.id}/profile`)).body.profile).toMatch(new RegExp(`^/api/files/users/${me.id}/`));
  });

  it('accepts a JPEG whatever its name says, and the old picture is gone', async () => {
    const before = (await c.upload(`/api/users/${me.id}/picture`, 'file', 'first.png', png(), 'image/png')).body.profile;
    const bytes = jpeg();
    const res = await c.upload(`/api/users/${me.id}/picture`, 'file', 'photo.JPG', bytes, 'application/octet-stream');
    expect(res.status).toBe(200);
    const img = await server.client().get(res.body.profile);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.raw.equals(bytes)).toBe(true);
    expect((await server.client().get(before)).status).toBe(404);
  });

  it('refuses a tampered or expired picture URL with 404', async () => {
    const res = await c.upload(`/api/users/${me.id}/picture`, 'file', 'me.png', png(), 'image/png');
    const url = new URL(res.body.profile, 'http://x');
    const tampered = new URL(url);
    const sig = tampered.searchParams.get('sig')!;
    tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    expect((await server.client().get(tampered.pathname + tampered.search)).status).toBe(404);

    const unsigned = await server.client().get(url.pathname);
    expect(unsigned.status).toBe(404);

    // Pushing the expiry later breaks the signature.
    const later = new URL(url);
    later.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    expect((await server.client().get(later.pathname + later.search)).status).toBe(404);

    // A correctly signed URL whose time is up.
    const key = url.pathname.replace(/^\/api\/files\//, '');
    const expired = server.app.deps.storage.downloadUrl(key, -1);
    expect((await server.client().get(expired)).status).toBe(404);
    expect((await server.client().get(server.app.deps.storage.downloadUrl(key, 60))).status).toBe(200);
  });

  it('refuses a GIF, and a text file named .png, with 415 and the spec message', async () => {
    const before = (await c.get(`/api/users/${me.id}/profile`)).body.profile;
    const asGif = await c.upload(`/api/users/${me.id}/picture`, 'file', 'anim.gif', gif(), 'image/gif');
    expect(asGif.status).toBe(415);
    expect(asGif.body.error.message).toBe(M.pictureType);
    const fake = await c.upload(`/api/users/${me.id}/picture`, 'file', 'fake.png', Buffer.from('just some text, honestly'), 'image/png');
    expect(fake.status).toBe(415);
    expect(fake.body.error.message).toBe(M.pictureType);
    const svg = await c.upload(`/api/users/${me.id}/picture`, 'file', 'x.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    expect(svg.status).toBe(415);
    expect((await c.get(`/api/users/${me.id}/profile`)).body.profile?.split('?')[0]).toBe(before?.split('?')[0]);
  });

  it('refuses a picture over 5 MB with 413 and the spec message', async () => {
    const big = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024 + 1 - png().length, 0)]);
    expect(big.length).toBe(5 * 1024 * 1024 + 1);
    const res = await c.upload(`/api/users/${me.id}/picture`, 'file', 'big.png', big, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.error.message).toBe(M.pictureSize);

    const huge = Buffer.concat([png(), Buffer.alloc(8 * 1024 * 1024, 0)]);
    const res2 = await c.upload(`/api/users/${me.id}/picture`, 'file', 'huge.png', huge, 'image/png');
    expect(res2.status).toBe(413);
    expect(res2.body.error.message).toBe(M.pictureSize);
  });

  it('accepts a picture of exactly 5 MB', async () => {
    const exact = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024 - png().length, 0)]);
    const res = await c.upload(`/api/users/${me.id}/picture`, 'file', 'exact.png', exact, 'image/png');
    expect(res.status).toBe(200);
  });

  it('refuses a request that is not a file upload', async () => {
    const res = await c.post(`/api/users/${me.id}/picture`, { picture: 'data:image/png;base64,AAAA' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.pictureType);
  });

  it('answers 404 for another user’s id and 401 without a session', async () => {
    const other = await givenUser(server);
    const res = await c.upload(`/api/users/${other.id}/picture`, 'file', 'me.png', png(), 'image/png');
    expect(res.status).toBe(404);
    const [row] = await server.app.deps.db.select().from(users).where(eq(users.id, other.id));
    expect(row!.pictureKey).toBeNull();
    expect((await server.client().upload(`/api/users/${me.id}/picture`, 'file', 'me.png', png(), 'image/png')).status).toBe(401);
  });

  it('answers a malformed user id with a 404 (no such user), a NUL with a 400, and stores nothing', async () => {
    const [before] = await server.app.deps.db.select().from(users).where(eq(users.id, me.id));
    for (const id of ['not-a-uuid', `${me.id}0`, me.id.replace(/-/g, ''), '00000000-0000-4000-8000-000000000000', 'me']) {
      const res = await c.upload(`/api/users/${id}/picture`, 'file', 'me.png', png(), 'image/png');
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: notFoundError });
    }
    const nul = await c.upload(`/api/users/${me.id}%00/picture`, 'file', 'me.png', png(), 'image/png');
    expect({ status: nul.status, body: nul.body }).toEqual({ status: 400, body: validationError('userId', M.invalidValue) });
    const tooLong = await c.upload(`/api/users/${'u'.repeat(301)}/picture`, 'file', 'me.png', png(), 'image/png');
    expect({ status: tooLong.status, body: tooLong.body }).toEqual({ status: 414, body: { error: { code: 'BAD_REQUEST', message: M.addressTooLong } } });
    const [after] = await server.app.deps.db.select().from(users).where(eq(users.id, me.id));
    expect(after!.pictureKey).toBe(before!.pictureKey);
  });
});
