import { M, TEMPLATE_REQUIRED_FILES } from '@marquee/core';
import yauzl from 'yauzl';

// Every template zip is checked before it is accepted (issue 10; spec accounts §5 names the required
// files). The archive is read from its central directory, and every entry is inflated through a
// counter that stops as soon as a limit is passed: a zip bomb is refused after at most one entry's
// limit of work, never after filling the disk or the memory. Nothing is extracted to disk.

export type ZipLimits = {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Uncompressed over compressed bytes, for entries past `ratioFloorBytes` (small files compress oddly). */
  maxRatio: number;
  ratioFloorBytes: number;
  /** The JSON, HTML and CSS files are kept as text; each at most this. */
  maxTextBytes: number;
};

export const TEMPLATE_ZIP_LIMITS: ZipLimits = {
  maxEntries: 2000,
  maxEntryBytes: 20 * 1024 * 1024,
  maxTotalBytes: 100 * 1024 * 1024,
  maxRatio: 200,
  ratioFloorBytes: 64 * 1024,
  maxTextBytes: 5 * 1024 * 1024,
};

export type ZipProblem = 'broken' | 'missing' | 'json' | 'unsafe' | 'too-big';

export class ZipRefused extends Error {
  constructor(
    readonly problem: ZipProblem,
    message: string,
  ) {
    super(message);
  }
}

export type CheckedTemplate = { html: string; css: string; project: string; config: string; metadata: string };

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why a name may not be unpacked, or null. `..`, absolute and drive paths, NUL, and backslash paths are refused. */
function unsafeName(name: string): boolean {
  if (name.length === 0 || name.includes('\0') || name.includes('\\')) return true;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return true;
  return name.split('/').some((part) => part === '..');
}

function isLink(entry: yauzl.Entry): boolean {
  const madeByUnix = entry.versionMadeBy >> 8 === 3;
  const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return madeByUnix && mode === S_IFLNK;
}

const tooBig = () => new ZipRefused('too-big', M.templateZipTooBig);

/**
 * Reads the zip at `file` and returns the page builder's files, or throws ZipRefused. The required
 * files sit at the root, or all in the one folder the archive was made from.
 */
export async function checkTemplateZip(file: string, limits: ZipLimits = TEMPLATE_ZIP_LIMITS): Promise<CheckedTemplate> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  } catch {
    throw new ZipRefused('broken', M.templateZipBroken);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw tooBig();
    const texts = new Map<string, string>();
    let total = 0;
    let seen = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        seen += 1;
        if (seen > limits.maxEntries) throw tooBig();
        const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, false);
        if (unsafeName(name) || isLink(entry)) throw new ZipRefused('unsafe', `${M.templateZipUnsafePath} ${name.slice(0, 200)}`);
        if (name.endsWith('/')) continue;
        // The declared sizes are checked first (cheap); the counter below catches archives that lie.
        if (entry.uncompressedSize > limits.maxEntryBytes || total + entry.uncompressedSize > limits.maxTotalBytes) throw tooBig();
        const base = name.split('/').pop() ?? name;
        const keep = (TEMPLATE_REQUIRED_FILES as readonly string[]).includes(base) && name.split('/').length <= 2;
        if (keep && entry.uncompressedSize > limits.maxTextBytes) throw tooBig();
        const chunks: Buffer[] = [];
        let bytes = 0;
        const stream = await zip.openReadStreamPromise(entry);
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            bytes += chunk.length;
            total += chunk.length;
            const ratioBad = bytes > limits.ratioFloorBytes && bytes / Math.max(1, entry.compressedSize) > limits.maxRatio;
            if (bytes > limits.maxEntryBytes || total > limits.maxTotalBytes || ratioBad || (keep && bytes > limits.maxTextBytes)) throw tooBig();
            if (keep) chunks.push(chunk);
          }
        } finally {
          stream.destroy();
        }
        if (keep) texts.set(name, Buffer.concat(chunks).toString('utf8'));
      }
    } catch (err) {
      if (err instanceof ZipRefused) throw err;
      // yauzl's own refusals: a corrupt header, a CRC or size mismatch, an unknown compression.
      throw new ZipRefused('broken', M.templateZipBroken);
    }
    return pickFiles(texts);
  } finally {
    zip.close();
  }
}

function pickFiles(texts: Map<string, string>): CheckedTemplate {
  const names = [...texts.keys()];
  const folders = [...new Set(names.filter((n) => n.endsWith('/index.html')).map((n) => n.slice(0, -'index.html'.length)))];
  const prefix = texts.has('index.html') ? '' : folders.length === 1 ? folders[0]! : '';
  const missing = TEMPLATE_REQUIRED_FILES.filter((f) => !texts.has(prefix + f));
  if (missing.length) throw new ZipRefused('missing', `${M.templateZipMissing} ${missing.join(', ')}`);
  const text = (f: string) => texts.get(prefix + f)!;
  for (const f of ['project.json', 'config.json', 'metadata.json']) {
    try {
      JSON.parse(text(f));
    } catch {
      throw new ZipRefused('json', `${M.templateZipBadJson} ${f}`);
    }
  }
  return { html: text('index.html'), css: text('index.css'), project: text('project.json'), config: text('config.json'), metadata: text('metadata.json') };
}
