import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { M } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import { decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { tickets, ticketTransfers } from '../../db/schema/index.js';
import { givenTenant, notFoundError, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { type WalletTestCredentials } from '../../../test/fixtures/wallet-certs.js';
import { givenCompletedOrder, givenWalletServers, unzip } from '../../../test/fixtures/wallet-orders.js';
import { signTicketCode } from '../checkin/ticket-code.js';
import { GOOGLE_SAVE_URL } from '../wallet/google-pass.js';

// Issue 28: wallet passes behind the order link. The pass is built through the real route with
// throwaway certificates made by openssl, unzipped, its manifest's SHA-1s checked against every file,
// and its detached PKCS#7 signature verified by openssl against the test root; Google's save link is
// a JWT verified with the test key's public half.

let creds: WalletTestCredentials;
let server: TestServer;
let plain: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
beforeAll(async () => {
  ({ creds, server, plain, tenant, other } = await givenWalletServers());
}, 60_000);
afterAll(async () => {
  await server?.close();
  await plain?.close();
});

/** openssl's verdict on the pass's detached signature over manifest.json, against the test root only. */
function opensslVerifies(manifest: Buffer, signature: Buffer): boolean {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-pkpass-'));
  writeFileSync(path.join(dir, 'manifest.json'), manifest);
  writeFileSync(path.join(dir, 'signature'), signature);
  try {
    execFileSync('openssl', ['smime', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', creds.caPem, '-purpose', 'any', '-out', '/dev/null'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return true;
  } catch {
    return false;
  }
}

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex');

describe('Apple Wallet', () => {
  it('a valid ticket’s .pkpass: every file in the manifest with its SHA-1, the signature verifies against the test root, the barcode is the PDF’s signed code', async () => {
    const order = await givenCompletedOrder(server, tenant);
    const ticket = order.page.tickets[0]!;
    expect(ticket.wallet.apple).toBe(`/api/p/order-links/${order.token}/tickets/${ticket.ticketId}/apple-wallet`);
    const res = await server.client(tenant.url).get(ticket.wallet.apple!);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="ticket_${ticket.ticketUID}.pkpass"`);
    expect(res.headers['cache-control']).toBe('private, no-store');

    const files = await unzip(res.raw);
    expect([...files.keys()].sort()).toEqual(['icon.png', 'icon@2x.png', 'icon@3x.png', 'manifest.json', 'pass.json', 'signature']);
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const signed = [...files.keys()].filter((f) => f !== 'manifest.json' && f !== 'signature').sort();
    expect(Object.keys(manifest).sort()).toEqual(signed);
    for (const f of signed) expect(manifest[f], f).toBe(sha1(files.get(f)!));

    expect(opensslVerifies(files.get('manifest.json')!, files.get('signature')!)).toBe(true);
    // The check can fail: one changed byte of the manifest, or a root the pass was not signed under.
    const tampered = Buffer.from(files.get('manifest.json')!.toString('utf8').replace(/"[0-9a-f]/, '"0'));
    expect(opensslVerifies(tampered, files.get('signature')!)).toBe(false);

    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: creds.passTypeId,
      teamIdentifier: creds.teamId,
      serialNumber: ticket.ticketUID,
      organizationName: tenant.name,
      backgroundColor: 'rgb(91, 60, 196)',
      foregroundColor: 'rgb(255, 255, 255)',
    });
    const code = signTicketCode(server.config.secret, order.eventId, ticket.ticketUID!);
    expect(pass.barcodes).toEqual([{ format: 'PKBarcodeFormatQR', message: code, messageEncoding: 'iso-8859-1', altText: ticket.ticketUID }]);
    const fields = Object.fromEntries(
      ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'].flatMap((k) => (pass.eventTicket[k] ?? []).map((f: { key: string; value: string }) => [f.key, f.value])),
    );
    expect(fields).toMatchObject({
      event: expect.stringMatching(/^Concert /),
      when: expect.stringMatching(/^Friday, May 31, 2030 at 8:30\sPM EDT$/),
      where: 'The Hall',
      name: ticket.fullName,
      type: expect.any(String),
      order: order.orderUid,
      ticketId: ticket.ticketUID,
      venue: 'The Hall\n10 Main St\nSpringfield, NY 10001, USA',
      note: 'Doors open at 7 PM. Bring a photo ID.',
    });
    expect(pass.relevantDate ?? pass.relevantDates?.[0]?.relevantDate ?? pass.relevantDates?.[0]?.date).toBeTruthy();
  });

  it('voided, refunded, passed-on and used tickets get no pass: 409 with a message; the order page offers none', async () => {
    const order = await givenCompletedOrder(server, tenant);
    const db = server.app.deps.db;
    const [voided, used, passedOn] = order.page.tickets;
    await db.update(tickets).set({ voided: true, voidedAt: new Date() }).where(and(eq(tickets.tenantId, tenant.id), eq(tickets.id, voided!.ticketId)));
    await db.update(tickets).set({ used: true }).where(and(eq(tickets.tenantId, tenant.id), eq(tickets.id, used!.ticketId)));
    const c = server.client(tenant.url);
    for (const t of [voided!, used!]) {
      for (const kind of ['apple-wallet', 'google-wallet']) {
        const res = await c.get(`/api/p/order-links/${order.token}/tickets/${t.ticketId}/${kind}`);
        expect(res.status, kind).toBe(409);
        expect(res.body.error).toEqual({ code: 'CONFLICT', message: M.walletTicketNotValid });
      }
    }
    const page = (await c.get(`/api/p/order-links/${order.token}`)).body;
    expect(page.tickets.find((t: { ticketId: string }) => t.ticketId === voided!.ticketId).wallet).toEqual({ apple: null, google: null });
    expect(page.tickets.find((t: { ticketId: string }) => t.ticketId === used!.ticketId).wallet).toEqual({ apple: null, google: null });
    // Passed on (issue 24): the ticket is its new holder's, and so is its wallet pass.
    const { randomUUID } = await import('node:crypto');
    await db.insert(ticketTransfers).values({
      tenantId: tenant.id, id: randomUUID(), ticketId: passedOn!.ticketId, orderId: order.orderId, eventId: order.eventId,
      fromUid: passedOn!.ticketUID!, toUid: `N${randomUUID().slice(0, 8)}`, fromName: 'Ada Lovelace', fromEmail: order.email,
      toName: 'Grace Hopper', toEmail: 'grace@example.test', linkHash: randomUUID(), via: 'order link',
    });
    for (const kind of ['apple-wallet', 'google-wallet']) {
      const res = await c.get(`/api/p/order-links/${order.token}/tickets/${passedOn!.ticketId}/${kind}`);
      expect(res.status, kind).toBe(409);
      expect(res.body.error.message).toBe(M.walletTicketNotValid);
    }
    const after = (await c.get(`/api/p/order-links/${order.token}`)).body;
    expect(after.tickets.find((t: { ticketId: string }) => t.ticketId === passedOn!.ticketId).wallet).toEqual({ apple: null, google: null });
  });

  it('another order’s ticket, a wrong token, a malformed id, another tenant’s host: 404', async () => {
    const order = await givenCompletedOrder(server, tenant);
    const second = await givenCompletedOrder(server, tenant);
    const theirs = await givenCompletedOrder(server, other);
    const mine = order.page.tickets[0]!.ticketId;
    const c = server.client(tenant.url);
    const flipped = order.token.slice(0, -1) + (order.token.endsWith('A') ? 'B' : 'A');
    for (const kind of ['apple-wallet', 'google-wallet']) {
      for (const url of [
        `/api/p/order-links/${order.token}/tickets/${second.page.tickets[0]!.ticketId}/${kind}`,
        `/api/p/order-links/${order.token}/tickets/${theirs.page.tickets[0]!.ticketId}/${kind}`,
        `/api/p/order-links/${order.token}/tickets/x/${kind}`,
        `/api/p/order-links/${order.token}/tickets/00000000-0000-4000-8000-000000000000/${kind}`,
        `/api/p/order-links/${flipped}/tickets/${mine}/${kind}`,
        `/api/p/order-links/x/tickets/${mine}/${kind}`,
      ]) {
        const res = await c.get(url);
        expect(res.status, url).toBe(404);
        expect(res.body, url).toEqual(notFoundError);
      }
      // The right token and ticket on another tenant's host, and on the platform's.
      expect((await server.client(other.url).get(`/api/p/order-links/${order.token}/tickets/${mine}/${kind}`)).status).toBe(404);
      expect((await server.client().get(`/api/p/order-links/${order.token}/tickets/${mine}/${kind}`)).status).toBe(404);
    }
  });
});

describe('Google Wallet', () => {
  it('redirects to Google’s save link: a JWT signed RS256 with the service account’s key, over the event’s class and the ticket’s object with the PDF’s code', async () => {
    const order = await givenCompletedOrder(server, tenant, { lines: [{ name: 'Balcony', price: 4200, quantity: 1 }] });
    const ticket = order.page.tickets[0]!;
    expect(ticket.wallet.google).toBe(`/api/p/order-links/${order.token}/tickets/${ticket.ticketId}/google-wallet`);
    const res = await server.client(tenant.url).get(ticket.wallet.google!);
    expect(res.status).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const location = res.headers.location!;
    expect(location.startsWith(GOOGLE_SAVE_URL)).toBe(true);
    const jwt = location.slice(GOOGLE_SAVE_URL.length);

    const publicKey = createPublicKey(creds.googlePrivateKey);
    const { payload, protectedHeader } = await jwtVerify(jwt, publicKey, { algorithms: ['RS256'], issuer: creds.clientEmail, audience: 'google' });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.typ).toBe('savetowallet');
    expect(payload.origins).toEqual([`http://${tenant.url}.${server.config.baseDomain}:${server.port}`]);
    const body = payload.payload as { eventTicketClasses: any[]; eventTicketObjects: any[] };
    expect(body.eventTicketClasses).toHaveLength(1);
    expect(body.eventTicketObjects).toHaveLength(1);
    const [klass] = body.eventTicketClasses;
    const [object] = body.eventTicketObjects;
    expect(klass).toMatchObject({
      id: `${creds.issuerId}.marquee-event-${order.eventId}`,
      issuerName: tenant.name,
      eventName: { defaultValue: { language: 'en-US', value: expect.stringMatching(/^Concert /) } },
      venue: { name: { defaultValue: { value: 'The Hall' } } },
      dateTime: { start: '2030-06-01T00:30:00.000Z' },
      hexBackgroundColor: '#5b3cc4',
    });
    expect(object).toMatchObject({
      id: `${creds.issuerId}.marquee-ticket-${ticket.ticketUID}`,
      classId: klass.id,
      state: 'ACTIVE',
      barcode: { type: 'QR_CODE', value: signTicketCode(server.config.secret, order.eventId, ticket.ticketUID!) },
      ticketHolderName: ticket.fullName,
      ticketType: { defaultValue: { value: 'Balcony' } },
      reservationInfo: { confirmationCode: order.orderUid },
    });

    // A JWT signed with any other key does not verify: the check can fail.
    const { generateKeyPairSync } = await import('node:crypto');
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    await expect(jwtVerify(jwt, stranger, { algorithms: ['RS256'] })).rejects.toThrow();
    expect(decodeJwt(jwt).iss).toBe(creds.clientEmail);
  });
});

describe('buttons only where configured', () => {
  it('the tickets mail has an Add to Apple Wallet and an Add to Google Wallet link per ticket, and they open the passes', async () => {
    const order = await givenCompletedOrder(server, tenant, { lines: [{ name: 'General Admission', price: 2500, quantity: 2 }] });
    expect(order.mail.html).toContain('Add to your phone’s wallet');
    const apple = [...order.mail.html!.matchAll(/href="([^"]+\/apple-wallet)"[^>]*>Add to Apple Wallet</g)].map((m) => m[1]!);
    const google = [...order.mail.html!.matchAll(/href="([^"]+\/google-wallet)"[^>]*>Add to Google Wallet</g)].map((m) => m[1]!);
    expect(apple).toHaveLength(2);
    expect(google).toHaveLength(2);
    expect(order.mail.text).toContain(`${M.addToAppleWallet}: ${apple[0]}`);
    const c = server.client(tenant.url);
    for (const url of apple) {
      expect(url.startsWith(`http://${tenant.url}.${server.config.baseDomain}:`)).toBe(true);
      const res = await c.get(new URL(url).pathname);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.apple.pkpass');
    }
    for (const url of google) expect((await c.get(new URL(url).pathname)).status).toBe(302);
  });

  it('without configuration: no wallet on the order page, none in the mail, and the routes are 404', async () => {
    const t = await givenTenant(plain);
    const order = await givenCompletedOrder(plain, t);
    expect(order.page.tickets.length).toBeGreaterThan(0);
    for (const ticket of order.page.tickets) expect(ticket.wallet).toEqual({ apple: null, google: null });
    expect(order.mail.html).not.toContain('Wallet');
    expect(order.mail.text).not.toContain('Wallet');
    for (const kind of ['apple-wallet', 'google-wallet']) {
      const res = await plain.client(t.url).get(`/api/p/order-links/${order.token}/tickets/${order.page.tickets[0]!.ticketId}/${kind}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: M.walletNotConfigured });
    }
  });

  it('half a configuration is refused at start, naming what is missing; a PEM may be given inline', () => {
    const { APPLE_WALLET_WWDR_CERT: _w, ...withoutWwdr } = creds.env;
    expect(() => loadConfig({ ...withoutWwdr, LOG_LEVEL: 'silent' }, { dataDir: creds.dir, secret: 'x'.repeat(40) })).toThrow(/APPLE_WALLET_WWDR_CERT/);
    const { GOOGLE_WALLET_ISSUER_ID: _i, ...withoutIssuer } = creds.env;
    expect(() => loadConfig({ ...withoutIssuer, LOG_LEVEL: 'silent' }, { dataDir: creds.dir, secret: 'x'.repeat(40) })).toThrow(/GOOGLE_WALLET_ISSUER_ID/);
    expect(() => loadConfig({ ...creds.env, APPLE_WALLET_SIGNER_CERT: '/nowhere/signer.pem' }, { dataDir: creds.dir, secret: 'x'.repeat(40) })).toThrow(/APPLE_WALLET_SIGNER_CERT/);
    const inline = loadConfig({ ...creds.env, GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: JSON.stringify({ client_email: 'a@b.test', private_key: creds.googlePrivateKey }) }, { dataDir: creds.dir, secret: 'x'.repeat(40) });
    expect(inline.wallet.google?.clientEmail).toBe('a@b.test');
    expect(loadConfig({}, { dataDir: creds.dir, secret: 'x'.repeat(40) }).wallet).toEqual({ apple: null, google: null });
  });
});
