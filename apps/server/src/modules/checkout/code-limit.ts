import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { failureLimitHooks } from '../../platform/failure-limiter.js';
import { isDomainError } from '../../platform/errors.js';

/**
 * Route hooks against guessing discount codes (the product's "rate limits on sign-in and codes"):
 * wrong codes are counted per client address across every route that answers whether a code is
 * valid, and past RATE_LIMIT_CODES_PER_10_MINUTES any request from that address that carries a
 * code is refused before the code is looked at, a right one too, so the refusal tells nothing.
 * Requests without a code are never affected. `codeOf` reads the code from the parsed, not yet
 * validated, body.
 */
export function discountCodeLimit(deps: Deps, codeOf: (body: unknown) => unknown) {
  return failureLimitHooks(deps.discountCodeAttempts, {
    keyOf: (req: FastifyRequest) => {
      const code = codeOf(req.body);
      return typeof code === 'string' && code.trim() ? req.ip : null;
    },
    isFailure: (err) => isDomainError(err, 'DISCOUNT_INVALID'),
  });
}

/** `body[key]` when the body is an object. */
export const field = (body: unknown, key: string): unknown =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[key] : undefined;
