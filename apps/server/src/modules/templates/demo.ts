import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { eventPages, siteTemplates, siteTemplateVersions } from '../../db/schema/index.js';
import type { Storage } from '../../platform/storage.js';

// The demo seed's site template (issue 10) and the demo event's page drafted from it. The zip is
// written here (stored entries, no compression) so that production needs no zip-writing package.

const HTML = `<header class="mq-hero">
  <p class="mq-kicker">Acme Events presents</p>
  <h1 class="mq-title">Summer Jam</h1>
  <p class="mq-lead">An evening of live music under the open sky. Bring your friends, your dancing shoes and a blanket.</p>
</header>
<section class="mq-highlights">
  <div class="mq-card"><h2>Live bands</h2><p>Four acts on two stages, from 7 pm until late.</p></div>
  <div class="mq-card"><h2>Food and drinks</h2><p>Local food trucks and a bar with something for everyone.</p></div>
  <div class="mq-card"><h2>Easy entry</h2><p>Show the ticket on your phone at the gate. No printing needed.</p></div>
</section>
<section class="mq-tickets">
  <div data-marquee-tickets></div>
</section>
<footer class="mq-footer"><p>Questions? Write to hello@acme.test</p></footer>`;

const CSS = `.mq-hero,.mq-highlights,.mq-tickets,.mq-footer{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
.mq-hero{padding:72px 24px 56px;text-align:center;background:linear-gradient(135deg,#3b1d8f,#7b3fe4);color:#fff}
.mq-kicker{text-transform:uppercase;letter-spacing:.12em;font-size:13px;opacity:.85;margin:0 0 8px}
.mq-title{font-size:clamp(36px,7vw,64px);margin:0 0 12px;line-height:1.05;color:#fff}
.mq-lead{max-width:620px;margin:0 auto;font-size:18px;line-height:1.5;opacity:.95}
.mq-highlights{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:16px;max-width:1040px;margin:-32px auto 0;padding:0 16px}
.mq-card{background:#fff;border-radius:12px;padding:20px;box-shadow:0 6px 24px rgba(20,10,60,.12)}
.mq-card h2{margin:0 0 6px;font-size:17px;color:#3b1d8f}
.mq-card p{margin:0;color:#4a4a5a;line-height:1.45}
.mq-tickets{max-width:1040px;margin:40px auto;padding:0 16px}
.mq-footer{text-align:center;padding:32px 16px;color:#6b6b7b;font-size:14px}`;

export const DEMO_TEMPLATE_FILES: Record<string, string> = {
  'index.html': HTML,
  'index.css': CSS,
  'project.json': JSON.stringify({ assets: [], styles: [], pages: [] }),
  'config.json': JSON.stringify({ name: 'Festival', ticketMenu: '[data-marquee-tickets]' }),
  'metadata.json': JSON.stringify({ author: 'Marquee', description: 'A bold hero, three highlights and the ticket menu.' }),
};

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip of stored (uncompressed) entries. */
export function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** The demo template (v1) and a draft page for the demo event made from it; publishing is the organiser's. */
export async function seedDemoTemplate(tx: Tx, storage: Storage, opts: { tenantId: string; eventId: string }) {
  const id = randomUUID();
  const zip = storedZip(DEMO_TEMPLATE_FILES);
  const zipKey = `templates/${id}/zip-${randomUUID()}.zip`;
  await storage.put(zipKey, zip, 'application/zip');
  await tx.insert(siteTemplates).values({ id, name: 'Festival', description: 'A bold hero, three highlights and the live ticket menu.', currentVersion: 1 });
  const f = DEMO_TEMPLATE_FILES;
  await tx.insert(siteTemplateVersions).values({ templateId: id, version: 1, zipKey, zipBytes: zip.length, html: f['index.html']!, css: f['index.css']!, project: f['project.json']! });
  await tx.insert(eventPages).values({
    tenantId: opts.tenantId,
    eventId: opts.eventId,
    templateId: id,
    templateVersion: 1,
    draftProject: f['project.json']!,
    draftHtml: f['index.html']!,
    draftCss: f['index.css']!,
  });
  return { templateId: id };
}
