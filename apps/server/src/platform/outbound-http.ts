import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// Requests the server makes to addresses its users give (webhook endpoints, issue 25). They must
// not reach our own network: private, loopback, link-local, carrier-grade NAT, multicast and every
// other special range are refused, in IPv4 and IPv6, IPv4-mapped IPv6 included. The check is made
// on the addresses the name resolves to, inside the socket's own lookup, so the connection goes to
// an address that was checked (a name that resolves to a public address once and to 127.0.0.1 the
// next time cannot slip through); the connected peer is checked once more. Redirects are not
// followed. Each request has a deadline and reads at most `maxBytes` of the answer.

export class OutboundRefused extends Error {}

/** Whether `address` (an IP literal) is an ordinary public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // Only global unicast (2000::/3) outside the ranges that carry an IPv4 address inside them.
    if (!v6.match(ipaddr.IPv6.parse('2000::'), 3)) return false;
  }
  return parsed.range() === 'unicast';
}

export type OutboundOptions = { timeoutMs: number; maxBytes: number; allowPrivate: boolean };
export type OutboundResponse = { status: number; body: string; truncated: boolean };

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
};

function refuse(address: string) {
  return new OutboundRefused(`The address ${address} is not on the public internet.`);
}

/** dns.lookup, refusing a name when any of its addresses is not public. */
const checkedLookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void) => {
  dns.lookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses) => {
    if (err) return callback(err);
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad || addresses.length === 0) return callback(refuse(bad?.address ?? hostname));
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}) as unknown as net.LookupFunction;

/** POSTs `body` to `url` under the rules above; rejects on refusal, timeout or a network error. */
export function postOutbound(url: string, body: string, headers: Record<string, string>, opts: OutboundOptions): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new OutboundRefused('The address is not a valid URL.'));
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return reject(new OutboundRefused('Only http and https addresses are allowed.'));
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!opts.allowPrivate && net.isIP(host) && !isPublicAddress(host)) return reject(refuse(host));
    const secure = target.protocol === 'https:';
    const req = (secure ? https : http).request(target, {
      method: 'POST',
      agent: secure ? agents.https : agents.http,
      lookup: opts.allowPrivate ? undefined : checkedLookup,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Marquee-Webhooks/1', ...headers },
    });
    const timer = setTimeout(() => req.destroy(new Error(`No answer within ${opts.timeoutMs} ms.`)), opts.timeoutMs);
    const done = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    req.on('socket', (socket) => {
      if (opts.allowPrivate) return;
      const check = () => {
        const peer = socket.remoteAddress;
        if (peer && !isPublicAddress(peer)) req.destroy(refuse(peer));
      };
      if ((socket as net.Socket).connecting) socket.once('connect', check);
      else check();
    });
    req.on('error', (err) => done(() => reject(err)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = opts.maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = opts.maxBytes;
          truncated = true;
          done(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), truncated }));
          res.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => done(() => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), truncated })));
      res.on('error', (err) => done(() => reject(err)));
    });
    req.end(body);
  });
}
