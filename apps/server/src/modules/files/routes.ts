import { Transform } from 'node:stream';
import { M } from '@marquee/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { UploadGrant } from '../../platform/storage.js';
import { sniffContentType } from '../../platform/content-type.js';
import { AppError, notFound } from '../../platform/errors.js';

const ZSigned = z.object({
  exp: z.string().optional(),
  sig: z.string().optional(),
  max: z.string().optional(),
  types: z.string().optional(),
});

const UPLOAD_TYPES = ['application/zip', 'application/octet-stream', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** Signed, expiring download and upload URLs of the local storage driver. */
export function registerFileRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

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

  // The upload route lives in its own scope with the only parser for raw file bodies, so no other
  // route reads a 50 MB octet-stream before refusing it (issue 14 §3). Its signature and declared
  // size are checked before a byte of the body is read, and the body is cut off at the grant's size.
  app.register(async (scope) => {
    scope.addContentTypeParser(UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: UPLOAD_MAX_BYTES }, (_req, body, done) => done(null, body));
    const grants = new WeakMap<FastifyRequest, UploadGrant>();
    scope.withTypeProvider<ZodTypeProvider>().put(
      '/api/uploads/*',
      {
        config: { access: { kind: 'public' } },
        bodyLimit: UPLOAD_MAX_BYTES,
        schema: { hide: true, querystring: ZSigned },
        onRequest: async (req) => {
          const key = (req.params as { '*': string })['*'];
          const grant = deps.storage.verify('put', key, req.query as Record<string, string | undefined>);
          if (!grant || grant === true) throw notFound();
          const declared = Number(req.headers['content-length']);
          if (Number.isFinite(declared) && declared > grant.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large.');
          grants.set(req, grant);
        },
        // A body sent without a length is counted as it arrives and cut off past the grant.
        preParsing: async (req, _reply, payload) => {
          const max = grants.get(req)?.maxBytes ?? 0;
          let seen = 0;
          return payload.pipe(
            new Transform({
              transform(chunk: Buffer, _enc, next) {
                seen += chunk.length;
                if (seen > max) next(new AppError('PAYLOAD_TOO_LARGE', 'The file is too large.'));
                else next(null, chunk);
              },
            }),
          );
        },
      },
      async (req, reply) => {
        const key = (req.params as { '*': string })['*'];
        const grant = grants.get(req);
        if (!grant) throw notFound();
        const bytes = req.body as unknown;
        // A body Fastify parsed as text or JSON was not sent as a file type we take.
        if (bytes !== undefined && bytes !== null && !Buffer.isBuffer(bytes)) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.fileTypeNotAccepted);
        }
        if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new AppError('BAD_REQUEST', 'The upload is empty.');
        if (bytes.length > grant.maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', 'The file is too large.');
        const type = sniffContentType(bytes);
        if (!type || !grant.types.includes(type)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', M.fileTypeNotAccepted);
        await deps.storage.put(key, bytes, type);
        return reply.status(200).send({ success: true });
      },
    );
  });
}
