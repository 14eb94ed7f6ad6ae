import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { APPLE_PASS_UPDATE_JOB } from '../../platform/domain-events.js';
import { siteCtxOf } from '../../platform/auth/guard.js';
import { APPLE_WEB_SERVICE_PATH } from './apple-pass-auth.js';
import { latestApplePass, notifyApplePassUpdates, registerAppleDevice, unregisterAppleDevice, updatedApplePasses } from './apple-web-service.js';

// Issue 28: Apple's pass web service on the tenant's host (Apple's "Wallet Passes" web service
// reference; docs/wallet.md). Wallet authorises each pass's calls with `Authorization: ApplePass
// {authenticationToken}`; the device list takes no token (Apple sends none).

const tags = ['wallet'];
const id = z.string().regex(/^[A-Za-z0-9._-]{1,200}$/, 'Not a valid identifier.');
const serial = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'Not a valid serial number.');
const passParams = z.object({ deviceLibraryId: id, passTypeId: id, serialNumber: serial });

export function registerAppleWebServiceRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: { kind: 'site' } } as const;
  const base = `${APPLE_WEB_SERVICE_PATH}/v1`;
  deps.jobs.register(APPLE_PASS_UPDATE_JOB, async (payload: { tenantId: string; eventId: string }) => {
    await notifyApplePassUpdates(deps, payload);
  });

  r.post(
    `${base}/devices/:deviceLibraryId/registrations/:passTypeId/:serialNumber`,
    {
      config,
      schema: {
        tags,
        summary: 'Registers a device for a pass’s updates (201 new, 200 already registered, 401 not this pass’s token)',
        params: passParams,
        body: z.object({ pushToken: z.string().regex(/^[A-Za-z0-9._-]{1,512}$/, 'Not a valid push token.') }),
        response: { 200: z.any(), 201: z.any() },
      },
    },
    async (req, reply) => {
      const done = await registerAppleDevice({ deps, tenantId: siteCtxOf(req).tenant.id, ...req.params, authorization: req.headers.authorization, pushToken: req.body.pushToken });
      return reply.status(done === 'created' ? 201 : 200).send({});
    },
  );

  r.delete(
    `${base}/devices/:deviceLibraryId/registrations/:passTypeId/:serialNumber`,
    { config, schema: { tags, summary: 'Unregisters a device from a pass’s updates', params: passParams, response: { 200: z.any() } } },
    async (req) => {
      await unregisterAppleDevice({ deps, tenantId: siteCtxOf(req).tenant.id, ...req.params, authorization: req.headers.authorization });
      return {};
    },
  );

  r.get(
    `${base}/devices/:deviceLibraryId/registrations/:passTypeId`,
    {
      config,
      schema: {
        tags,
        summary: 'The serial numbers of the device’s passes updated since a tag (204 when none)',
        params: z.object({ deviceLibraryId: id, passTypeId: id }),
        querystring: z.object({ passesUpdatedSince: z.string().max(40).optional() }),
        response: { 200: z.object({ serialNumbers: z.array(z.string()), lastUpdated: z.string() }), 204: z.any() },
      },
    },
    async (req, reply) => {
      const found = await updatedApplePasses({ deps, tenantId: siteCtxOf(req).tenant.id, ...req.params, since: req.query.passesUpdatedSince });
      return found ? found : reply.status(204).send();
    },
  );

  r.get(
    `${base}/passes/:passTypeId/:serialNumber`,
    {
      config,
      schema: { tags, summary: 'The latest version of a pass (304 when not modified since If-Modified-Since)', params: passParams.omit({ deviceLibraryId: true }), response: { 200: z.any(), 304: z.any() } },
    },
    async (req, reply) => {
      const found = await latestApplePass({ deps, tenantId: siteCtxOf(req).tenant.id, ...req.params, authorization: req.headers.authorization, ifModifiedSince: req.headers['if-modified-since'] });
      if (found === 'not-modified') return reply.status(304).send();
      return reply
        .type('application/vnd.apple.pkpass')
        .header('last-modified', found.lastModified.toUTCString())
        .header('cache-control', 'no-cache')
        .send(found.bytes);
    },
  );

  r.post(
    `${base}/log`,
    {
      config,
      schema: { tags, summary: 'Wallet’s error messages about this site’s passes (logged)', body: z.object({ logs: z.array(z.string().max(2000)).max(100) }), response: { 200: z.any() } },
    },
    async (req) => {
      for (const line of req.body.logs) req.log.warn({ walletLog: line, tenantId: siteCtxOf(req).tenant.id }, 'Apple Wallet log');
      return {};
    },
  );
}
