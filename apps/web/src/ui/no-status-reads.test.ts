import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApiError, domainCodeOf, errorCode, isBadInput, isNetworkError, isNotFound, isRetryable } from './api-client';

// The web switches on error codes (packages/core errors.ts), never on an HTTP status or a message
// (docs/architecture.md, "Errors"). ApiError keeps its status private, so `e.status` does not
// compile; this test catches the ways around it (a cast, a Response's status, a message compared).
// Only the transport, ui/api-client.ts, reads statuses.

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const TRANSPORT = 'ui/api-client.ts';

const FORBIDDEN: Array<[string, RegExp]> = [
  ['a status compared with a number', /\bstatus\s*(?:[!=]==?|[<>]=?)\s*\d/],
  ['a number compared with a status', /\d\s*(?:[!=]==?|[<>]=?)\s*[\w.?!()]*\bstatus\b(?!\s*\()/],
  ['a cast that reads a status', /status\??\s*:\s*number/],
  ['a switch on a status', /switch\s*\([^)]*\bstatus\)\s*\{\s*case\s+\d/],
  ['a message compared or searched', /(?<!typeof [\w.?]*)\.message\s*(?:[!=]==?|\.includes\(|\.startsWith\(|\.endsWith\(|\.match\()/],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [path] : [];
  });
}

/** Each forbidden read as "file:line: what". */
export function statusReads(files: Array<{ name: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { name, text } of files) {
    if (name === TRANSPORT) continue;
    text.split('\n').forEach((line, i) => {
      for (const [what, re] of FORBIDDEN) if (re.test(line)) found.push(`${name}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  return found;
}

describe('the web reads no HTTP status for meaning', () => {
  it('no file but the transport compares a status or a message', () => {
    const files = sources(SRC).map((path) => ({ name: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(statusReads(files)).toEqual([]);
  });

  it('catches the forms it was written for', () => {
    const caught = (line: string) => statusReads([{ name: 'features/x.ts', text: line }]).length;
    expect(caught('if (isApiError(e) && e.status === 403) void done();')).toBe(1);
    expect(caught('const unverified = failure?.status === 403;')).toBe(1);
    expect(caught('if ((e as { status?: number }).status === 404) return null;')).toBe(2);
    expect(caught("retry: (n, err) => n < 2 && !(err as { status?: number }).status,")).toBe(1);
    expect(caught('!(isApiError(error) && error.status > 0 && error.status < 500)')).toBe(1);
    expect(caught('if (res.status !== 200) throw e;')).toBe(1);
    expect(caught('if (409 === e.status) refetch();')).toBe(1);
    expect(caught("if (e.message.includes('gateway destination')) hint();")).toBe(1);
    expect(caught("if (error.message === M.refundsExportEmpty) empty();")).toBe(1);
    expect(caught("children: typeof opts.message === 'string' ? opts.message : null,")).toBe(0);
    // Not an HTTP status: a row's status, compared with a word.
    expect(caught("const cancelled = d.status === 'cancelled';")).toBe(0);
    expect(caught('new ApiError(res.status, code, message)')).toBe(0);
    expect(statusReads([{ name: TRANSPORT, text: 'if (res.status === 204) return;' }])).toEqual([]);
  });
});

describe('what the web reads instead: codes', () => {
  const answer = (status: number, code: string, domainCode: Parameters<typeof domainCodeOf>[0] = null) =>
    new ApiError(status, code, 'message', {}, { domainCode: domainCode as never });

  it('tells a domain code, a generic code, no answer and a thrown non-answer apart', () => {
    const waiting = answer(403, 'FORBIDDEN', 'WAITING_ROOM_REQUIRED');
    expect(domainCodeOf(waiting)).toBe('WAITING_ROOM_REQUIRED');
    expect(errorCode(waiting)).toBe('FORBIDDEN');
    expect(isNotFound(answer(404, 'NOT_FOUND'))).toBe(true);
    expect(isNotFound(answer(410, 'GONE'))).toBe(false);
    expect(isBadInput(answer(400, 'VALIDATION'))).toBe(true);
    expect(isBadInput(answer(400, 'BAD_REQUEST', 'DISCOUNT_INVALID'))).toBe(true);
    expect(isNetworkError(new ApiError(0, 'NETWORK', 'offline'))).toBe(true);
    expect(errorCode(answer(418, 'TEAPOT'))).toBe('UNKNOWN');
    expect(errorCode(new TypeError('x'))).toBeNull();
    expect(domainCodeOf(new TypeError('x'))).toBeNull();
  });

  it('retries what a retry may change: no answer, a server failure, a thrown non-answer; never a 4xx', () => {
    expect(isRetryable(new ApiError(0, 'NETWORK', 'offline'))).toBe(true);
    expect(isRetryable(answer(500, 'INTERNAL'))).toBe(true);
    expect(isRetryable(answer(503, 'UNAVAILABLE', 'TENANT_SETTINGS_FAILED'))).toBe(true);
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryable(answer(404, 'NOT_FOUND'))).toBe(false);
    expect(isRetryable(answer(429, 'RATE_LIMITED', 'MESSAGE_LIMIT_REACHED'))).toBe(false);
  });
});
