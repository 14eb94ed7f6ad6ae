import http2 from 'node:http2';
import type { FastifyBaseLogger } from 'fastify';
import type { AppleWalletConfig } from '../../config.js';

// Issue 28: tells Wallet on each device that a pass changed (docs/wallet.md): an empty push to
// APNs for each push token, the topic being the pass type id, over TLS with the pass type
// certificate itself. Sent only when the operator names APNs (APPLE_WALLET_APNS_URL,
// https://api.push.apple.com); otherwise each push is logged and Wallet still finds the change
// when it next asks (it does on opening the pass, and on pull to refresh).

export async function sendApplePushes(config: AppleWalletConfig, pushTokens: readonly string[], log: FastifyBaseLogger): Promise<void> {
  if (!config.apnsUrl) {
    for (const token of pushTokens) log.info({ pushToken: token, topic: config.passTypeId }, 'wallet pass update: APNs not configured, push not sent');
    return;
  }
  const session = http2.connect(config.apnsUrl, { cert: config.signerCert, key: config.signerKey, passphrase: config.signerKeyPassphrase });
  try {
    for (const token of pushTokens) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = session.request({ ':method': 'POST', ':path': `/3/device/${encodeURIComponent(token)}`, 'apns-topic': config.passTypeId, 'apns-push-type': 'background', 'content-type': 'application/json' });
        req.on('response', (headers) => resolve(Number(headers[':status'])));
        req.on('error', reject);
        req.resume();
        req.end('{}');
      });
      // 410: the device no longer has the pass; Wallet unregisters it itself.
      if (status !== 200) log.warn({ pushToken: token, status }, 'wallet pass update: APNs refused the push');
    }
  } finally {
    session.close();
  }
}
