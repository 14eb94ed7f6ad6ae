import { createHmac, timingSafeEqual } from 'node:crypto';

// Issue 28: Apple's pass web service (docs/wallet.md). Each pass carries its own authentication
// token, derived from the server's secret, the tenant and the serial number (the ticket's uid), so
// nothing is stored for it and a token opens one pass of one tenant only.

/** Where Wallet reaches the web service, on the tenant's host (Apple adds /v1/...). */
export const APPLE_WEB_SERVICE_PATH = '/api/wallet/apple';

export function applePassAuthToken(secret: string, tenantId: string, serialNumber: string): string {
  return createHmac('sha256', secret).update(`apple-pass:${tenantId}:${serialNumber}`).digest('base64url');
}

/** Whether `Authorization: ApplePass {token}` is this pass's. */
export function isApplePassAuthorized(secret: string, tenantId: string, serialNumber: string, authorization: string | undefined): boolean {
  const m = /^ApplePass ([A-Za-z0-9_-]{16,128})$/.exec(authorization ?? '');
  if (!m) return false;
  const want = Buffer.from(applePassAuthToken(secret, tenantId, serialNumber));
  const got = Buffer.from(m[1]!);
  return got.length === want.length && timingSafeEqual(got, want);
}
