import type { FastifyRequest } from 'fastify';
import { AppError, type AppErrorCode as ErrorCode } from './errors.js';

/**
 * The one file of a multipart/form-data upload, as bytes. A body that is not multipart, has no
 * boundary or is not well-formed multipart (the parser throws plain errors for those) is bad input,
 * a 400 with the route's message, never a 500 (issue 14: found by the OpenAPI fuzz suite).
 */
export async function uploadedFile(
  req: FastifyRequest,
  opts: { maxBytes: number; typeMessage: string; sizeMessage: string; notMultipart?: ErrorCode },
): Promise<{ bytes: Buffer; truncated: boolean }> {
  if (!req.isMultipart()) throw new AppError(opts.notMultipart ?? 'BAD_REQUEST', opts.typeMessage);
  try {
    const file = await req.file({ limits: { fileSize: opts.maxBytes } });
    if (!file) throw new AppError('BAD_REQUEST', opts.typeMessage);
    const bytes = await file.toBuffer();
    return { bytes, truncated: file.file.truncated };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', opts.sizeMessage);
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) throw err;
    throw new AppError('BAD_REQUEST', opts.typeMessage);
  }
}
