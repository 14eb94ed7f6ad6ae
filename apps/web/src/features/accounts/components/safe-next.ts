/** A same-site path to return to after signing in; anything else (another host, //evil) is ignored. */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (/^\/(login|signup|verify|event-staff-verify|forgot-password|accept-invite)(\/|\?|$)/.test(next)) return null;
  return next;
}
