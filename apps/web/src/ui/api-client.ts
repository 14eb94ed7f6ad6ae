import { ERROR_STATUS, isDomainErrorCode, type DomainErrorCode, type ErrorCode } from '@marquee/core';

// The one way the web talks to the server: same-origin cookies, the CSRF header on every write,
// and every failure turned into an ApiError whose message is the server's body.error.message
// (spec: accounts-admin-fees §7 "Error text comes from body.error.message") and whose codes
// (packages/core errors.ts) are what the web switches on: the domain code when the failure has one
// (`e.domainCode`, exhaustively where the answer decides the screen), else the generic code
// (`errorCode(e)`: NOT_FOUND, VALIDATION...). Never the message, and never the HTTP status: the
// status is the transport's business and stays in this file (ApiError keeps it private and only
// `isRetryable` reads it; the CSRF retry below goes by the CSRF_INVALID code; a unit test,
// no-status-reads.test.ts, keeps other code from comparing statuses).

export type ApiErrorBody = { error: { code: string; message: string; fields?: Record<string, string>; domainCode?: string } };

/** The generic code of a failure: the server's (ERROR_STATUS), NETWORK when the server was not reached, UNKNOWN for an answer that is not ours. */
export type ApiErrorCode = ErrorCode | 'NETWORK' | 'UNKNOWN';
const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_STATUS, code);

export class ApiError extends Error {
  /** The HTTP status (0: no answer). The transport's: read for meaning nowhere (use the codes). */
  private readonly status: number;
  readonly code: ApiErrorCode;
  readonly fields: Record<string, string>;
  readonly domainCode: DomainErrorCode | null;
  /** The rest of the answer's body (a domain error's payload sits beside `error`). */
  readonly body: Record<string, unknown>;
  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    extra: { domainCode?: DomainErrorCode | null; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code === 'NETWORK' || isErrorCode(code) ? code : 'UNKNOWN';
    this.fields = fields;
    this.domainCode = extra.domainCode ?? null;
    this.body = extra.body ?? {};
  }
  /** Transport only: an answer a retry may change (the server was not reached, or failed on its side). */
  get retryable(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The generic code of any thrown value (null: not an API failure). */
export const errorCode = (e: unknown): ApiErrorCode | null => (isApiError(e) ? e.code : null);

/** The domain code of any thrown value (null: none). */
export const domainCodeOf = (e: unknown): DomainErrorCode | null => (isApiError(e) ? e.domainCode : null);

/** The thing asked for does not exist (or is not this tenant's, which the server answers alike). */
export const isNotFound = (e: unknown): boolean => errorCode(e) === 'NOT_FOUND';

/** The input was refused as sent (VALIDATION or BAD_REQUEST): `fields` says which, when it can. */
export const isBadInput = (e: unknown): boolean => errorCode(e) === 'VALIDATION' || errorCode(e) === 'BAD_REQUEST';

/** The server was not reached (offline, DNS, a dropped connection). */
export const isNetworkError = (e: unknown): boolean => errorCode(e) === 'NETWORK';

/**
 * Whether a failed read is worth trying again (react-query's and the site cache's `retry`): a
 * network or server failure, or anything thrown that is not an answer; an answer of 4xx is final.
 */
export const isRetryable = (e: unknown): boolean => !isApiError(e) || e.retryable;

const NETWORK_MESSAGE = 'We could not reach Marquee. Check your connection and try again.';
const UNKNOWN_MESSAGE = 'Something went wrong on our side. Please try again.';

/** The message to show a person for any thrown value. */
export function errorMessage(e: unknown, fallback: string = UNKNOWN_MESSAGE): string {
  if (isApiError(e)) return e.message || fallback;
  return fallback;
}

let csrfToken: string | null = null;
/** Set from GET /api/auth/session, login and change-password answers (each carries a token). */
export function setCsrfToken(token: string | null) {
  csrfToken = token;
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

type RequestOptions = { query?: Query; body?: unknown; signal?: AbortSignal };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send(method: Method, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  try {
    return await fetch(withQuery(path, opts.query), { method, headers, body, credentials: 'same-origin', signal: opts.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, 'NETWORK', NETWORK_MESSAGE);
  }
}

async function toError(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  const err = body?.error;
  if (err && typeof err.message === 'string') {
    const domainCode = isDomainErrorCode(err.domainCode) ? err.domainCode : null;
    return new ApiError(res.status, err.code ?? 'UNKNOWN', err.message, err.fields ?? {}, { domainCode, body: body as Record<string, unknown> });
  }
  return new ApiError(res.status, res.status >= 500 ? 'INTERNAL' : 'UNKNOWN', UNKNOWN_MESSAGE);
}

async function refreshCsrfToken(): Promise<boolean> {
  const res = await send('GET', '/api/auth/session', {});
  if (!res.ok) return false;
  const body = (await res.json()) as { csrfToken?: string };
  setCsrfToken(body.csrfToken ?? null);
  return !!body.csrfToken;
}

export async function request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts);
  if (!res.ok && method !== 'GET') {
    const err = await toError(res);
    // The session may have been renewed elsewhere (another tab changed the password): fetch
    // the current token once and retry; a real refusal stays a refusal.
    if (err.domainCode !== 'CSRF_INVALID' || !(await refreshCsrfToken())) throw err;
    res = await send(method, path, opts);
  }
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A write whose answer is a file (a PDF): the bytes, or an ApiError as for any call. */
async function requestBlob(path: string, body: unknown): Promise<Blob> {
  let res = await send('POST', path, { body });
  if (!res.ok) {
    const err = await toError(res.clone());
    if (err.domainCode === 'CSRF_INVALID' && (await refreshCsrfToken())) res = await send('POST', path, { body });
  }
  if (!res.ok) throw await toError(res);
  return res.blob();
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
  /** multipart/form-data upload (the browser sets the boundary). */
  upload: <T>(path: string, form: FormData) => request<T>('POST', path, { body: form }),
  /** POST answered with a file (ticket PDFs). */
  postForBlob: (path: string, body?: unknown) => requestBlob(path, body ?? {}),
};
