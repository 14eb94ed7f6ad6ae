import { M } from '@marquee/core';

// One error type for the whole server (architecture rule 5). Services throw AppError; the one
// error handler in app.ts turns it into {error:{code,message,fields}} with the status below.
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'GONE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL';

export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}

export function statusFor(code: AppErrorCode): number {
  switch (code) {
    case 'BAD_REQUEST':
      return 400;
    case 'VALIDATION':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'GONE':
      return 410;
    case 'PAYLOAD_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'RATE_LIMITED':
      return 429;
    case 'UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      return assertNever(code);
  }
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
export const unauthenticated = (message: string = M.notSignedIn) => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string = M.forbidden) => new AppError('FORBIDDEN', message);
