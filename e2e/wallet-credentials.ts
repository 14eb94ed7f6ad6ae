import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Issue 28: throwaway wallet credentials for the browser tests' server, made with openssl (a test root,
// a "WWDR" intermediate, a pass signer; an RSA key as a Google service account's). Made once per
// directory: Playwright evaluates its config in every worker, and the server reads the files at start.

export function walletTestEnv(dir: string): Record<string, string> {
  const at = (f: string) => path.join(dir, f);
  if (!existsSync(at('service-account.json'))) {
    mkdirSync(dir, { recursive: true });
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    writeFileSync(at('ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
    writeFileSync(at('leaf.ext'), 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n');
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=Marquee E2E Root CA', '-days', '3650');
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'wwdr.key');
    openssl('req', '-new', '-key', 'wwdr.key', '-subj', '/CN=Marquee E2E WWDR', '-out', 'wwdr.csr');
    openssl('x509', '-req', '-in', 'wwdr.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '3650', '-extfile', 'ca.ext', '-out', 'wwdr.pem');
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'signer.key');
    openssl('req', '-new', '-key', 'signer.key', '-subj', '/UID=pass.test.marquee/CN=Pass Type ID: pass.test.marquee/OU=TEAM123456', '-out', 'signer.csr');
    openssl('x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key', '-CAcreateserial', '-days', '3650', '-extfile', 'leaf.ext', '-out', 'signer.pem');
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'google.key');
    writeFileSync(at('service-account.json'), JSON.stringify({ type: 'service_account', client_email: 'wallet-e2e@marquee-test.iam.gserviceaccount.com', private_key: readFileSync(at('google.key'), 'utf8') }));
  }
  return {
    APPLE_WALLET_PASS_TYPE_ID: 'pass.test.marquee',
    APPLE_WALLET_TEAM_ID: 'TEAM123456',
    APPLE_WALLET_SIGNER_CERT: at('signer.pem'),
    APPLE_WALLET_SIGNER_KEY: at('signer.key'),
    APPLE_WALLET_WWDR_CERT: at('wwdr.pem'),
    GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
    GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: at('service-account.json'),
  };
}
