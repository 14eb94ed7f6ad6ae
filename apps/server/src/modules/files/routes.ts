import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { sniffContentType } from '../../platform/content-type.js';
import { AppError, notFound } from '../../platform/errors.js';

const ZSigned = z.object({
  exp: z.string().optional(),
  sig: z.string().optional(),
  max: z.string().optional(),
  types: z.string().optional(),
});

/** Signed, expiring download and upload URLs of the local storage driver. */
export function registerFileRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Raw bodies for signed uploads: the bytes are checked here, not trusted by their declared type.
  app.addContentTypeParser(['application/zip', 'application/octet-stream', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'], { parseAs: 'buffer', bodyLimit: 50 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  r.get(
    '/api/files/*',
    { config: { access: { kind: 'public' } }, schema: { hide: true, querystring: ZSigned } },
    async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      if (deps.storage.verify('get', key, req.query) !== true) throw notFound();
      const object = await deps.storage.get(key);
      if (!object) throw notFound();
      return reply
        .type(object.contentType)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(object.bytes);
    },
  );

  r.put(
    '/api/uploads/*',
    { config: { access: { kind: 'public' } }, bodyLimit: 50 * 1024 * 1024, schema: { hide: true, querystring: ZSigned } },
    async (req, reply) => {
      const key = (req.params as { '*': string })['*'];
      const grant = deps.storage.verify('put', key, req.query);
      if (!grant || grant === true) throw notFound();
      const bytes = req.body as unknown;
      // A body Fastify parsed as text or JSON was not sent as a file type we take.
      if (bytes !== undefined && bytes !== null && !Buffer.isBuffer(bytes)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'This kind of file is not accepted here.');
      }
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new AppError('BAD_REQUEST', 'The upload is empty.');
      if (bytes.length > grant.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large.');
      const type = sniffContentType(bytes);
      if (!type || !grant.types.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'This kind of file is not accepted here.');
      await deps.storage.put(key, bytes, type);
      return reply.status(200).send({ success: true });
    },
  );
}
