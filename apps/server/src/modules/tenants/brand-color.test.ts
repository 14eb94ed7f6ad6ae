import { M_BRAND } from '@marquee/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenantWithAdmin, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Issue 28: the tenant's brand colour. A tenant admin sets it (#rrggbb, dark enough for white text),
// the attendee site's context carries it (the site and the widget take it as their accent), and it
// goes back to the default with null. Bad colours are refused with their message and nothing is
// written; another tenant's admin cannot set it.

let server: TestServer;
let acme: { tenant: GivenTenant; admin: Client };
let other: { tenant: GivenTenant; admin: Client };
beforeAll(async () => {
  server = await startServer();
  acme = await givenTenantWithAdmin(server);
  other = await givenTenantWithAdmin(server);
}, 60_000);
afterAll(() => server?.close());

describe('the tenant brand colour', () => {
  it('is set by the tenant admin, shown to the site, refused when unreadable, reset with null', async () => {
    const path = `/api/tenants/${acme.tenant.id}`;
    expect((await acme.admin.get(path)).body.details.brandColor).toBeNull();
    expect((await server.client(acme.tenant.url).get('/api/site/context')).body.tenant.brandColor).toBeNull();

    const saved = await acme.admin.request('PATCH', path, { details: { brandColor: '#0B6E4F' } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.details.brandColor).toBe('#0b6e4f');
    // The host's tenant is cached briefly; the update invalidates it.
    expect((await server.client(acme.tenant.url).get('/api/site/context')).body.tenant.brandColor).toBe('#0b6e4f');

    for (const [bad, message] of [
      ['#fff', M_BRAND.colorFormat],
      ['green', M_BRAND.colorFormat],
      ['#0b6e4f; background:url(x)', M_BRAND.colorFormat],
      ['#ffd400', M_BRAND.colorContrast],
      ['#ffffff', M_BRAND.colorContrast],
    ] as const) {
      const res = await acme.admin.request('PATCH', path, { details: { brandColor: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.error.fields['details.brandColor'], bad).toBe(message);
    }
    expect((await acme.admin.request('PATCH', path, { details: { brandColor: 12 } })).status).toBe(400);
    expect((await acme.admin.get(path)).body.details.brandColor).toBe('#0b6e4f');

    // Another tenant's admin: 404 (theirs is not touched either).
    const foreign = await other.admin.request('PATCH', path, { details: { brandColor: '#1f2937' } });
    expect([403, 404]).toContain(foreign.status);
    expect((await acme.admin.get(path)).body.details.brandColor).toBe('#0b6e4f');
    expect((await other.admin.get(`/api/tenants/${other.tenant.id}`)).body.details.brandColor).toBeNull();

    const reset = await acme.admin.request('PATCH', path, { details: { brandColor: null } });
    expect(reset.status).toBe(200);
    expect(reset.body.details.brandColor).toBeNull();
    expect((await server.client(acme.tenant.url).get('/api/site/context')).body.tenant.brandColor).toBeNull();
  });
});
