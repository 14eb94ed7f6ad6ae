import yazl from 'yazl';

// Zips for the template tests and the demo seed, built with yazl. Names yazl refuses to write
// (`../x`, `/x`) are written under a placeholder of the same length and patched in afterwards.

export type ZipEntry = { name: string; data: string | Buffer; mode?: number; store?: boolean };

export const GOOD_TEMPLATE_FILES: ZipEntry[] = [
  {
    name: 'index.html',
    data: '<section class="hero"><h1>Our event</h1><p>Tell people why they should come.</p></section><div data-marquee-tickets></div>',
  },
  { name: 'index.css', data: '.hero{padding:48px 24px;text-align:center;background:#1c3d5a;color:#fff}' },
  { name: 'project.json', data: JSON.stringify({ pages: [] }) },
  { name: 'config.json', data: JSON.stringify({ name: 'Test template' }) },
  { name: 'metadata.json', data: JSON.stringify({ author: 'Marquee' }) },
];

export function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const patches: Array<[string, string]> = [];
  for (const e of entries) {
    let name = e.name;
    if (name.startsWith('/') || name.split('/').includes('..')) {
      const placeholder = name.replace(/[./]/g, 'Q');
      patches.push([placeholder, name]);
      name = placeholder;
    }
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    zip.addBuffer(data, name, { mode: e.mode, compress: !e.store });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      let out = Buffer.concat(chunks);
      for (const [from, to] of patches) {
        let at = out.indexOf(from);
        while (at !== -1) {
          out.write(to, at, 'latin1');
          at = out.indexOf(from, at + 1);
        }
      }
      resolve(out);
    });
  });
}
