import { DOMAIN_ERRORS, ERROR_STATUS, M, type DomainErrorCode, type DomainErrorPayloads, type ErrorCode } from '@marquee/core';

export { assertNever } from '@marquee/core';

// One error type for the whole server (architecture rule 5). Services throw AppError; the one
// error handler in app.ts turns it into {error:{code,message,fields,domainCode}} with the status
// from packages/core ERROR_STATUS. A DomainError also carries a domain code clients switch on.
export type AppErrorCode = ErrorCode;

export function statusFor(code: AppErrorCode): number {
  return ERROR_STATUS[code];
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly fields: Record<string, string> | undefined;
  constructor(code: AppErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }
  get status(): number {
    return statusFor(this.code);
  }
}

export const notFound = (message: string = M.notFound) => new AppError('NOT_FOUND', message);
export const badRequest = (message: string, fields?: Record<string, string>) => new AppError('BAD_REQUEST', message, fields);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const unauthenticated = (message?: string) => (message === undefined ? new DomainError('NOT_SIGNED_IN', M.notSignedIn) : new AppError('UNAUTHENTICATED', message));
export const forbidden = (message: string = M.forbidden) => new AppError('FORBIDDEN', message);

/** Too many of something for now: a 429 whose Retry-After header says when to try again. */
export class RetryLaterError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('RATE_LIMITED', message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** A failure clients act on: its generic code and status come from DOMAIN_ERRORS; its payload is answered beside `error`. */
export class DomainError<C extends DomainErrorCode = DomainErrorCode> extends AppError {
  readonly domainCode: C;
  readonly payload: DomainErrorPayloads[C];
  /** For a RATE_LIMITED domain code: the Retry-After header, in seconds. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    domainCode: C,
    message: string,
    opts: { fields?: Record<string, string>; payload?: DomainErrorPayloads[C]; retryAfterSeconds?: number } = {},
  ) {
    super(DOMAIN_ERRORS[domainCode], message, opts.fields);
    this.domainCode = domainCode;
    this.payload = opts.payload as DomainErrorPayloads[C];
    this.retryAfterSeconds = opts.retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(opts.retryAfterSeconds));
  }
}

export const isDomainError = <C extends DomainErrorCode>(err: unknown, code: C): err is DomainError<C> => err instanceof DomainError && err.domainCode === code;

/** A thrown value as an Error (what a rejected promise of a library may carry is anything). */
export const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
