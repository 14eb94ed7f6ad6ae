import { isDomainErrorCode, type DomainErrorCode } from '@marquee/core';

// The one way the web talks to the server: same-origin cookies, the CSRF header on every write,
// and every failure turned into an ApiError whose message is the server's body.error.message
// (spec: accounts-admin-fees §7 "Error text comes from body.error.message") and whose domainCode
// (packages/core errors.ts) is what the web switches on, never the message.

export type ApiErrorBody = { error: { code: string; message: string; fields?: Record<string, string>; domainCode?: string } };

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
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
    this.code = code;
    this.fields = fields;
    this.domainCode = extra.domainCode ?? null;
    this.body = extra.body ?? {};
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

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
  if (res.status === 403 && method !== 'GET') {
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
  if (res.status === 403) {
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
