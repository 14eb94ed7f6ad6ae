import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TPublicEvent, TSiteContext } from '@marquee/core';

// The attendee site's server renderer, built by `npm run build` beside the web app
// (apps/web/dist-ssr/ssr-entry.js, from apps/web/src/modes/site/ssr-entry.tsx), and the client
// build's manifest, from which each server-rendered page links its own scripts and stylesheets in
// the head (so its styles are there before the first paint and nothing shifts when the app starts).

export type SsrPage = 'home' | 'tickets' | 'events';

type SsrModule = {
  renderSitePage(input: {
    url: string;
    context: TSiteContext;
    event?: TPublicEvent;
    page?: { version: number; html: string; css: string } | null;
    events?: unknown;
  }): Promise<string>;
  PAGE_SOURCES: Record<string, string[]>;
};

type ManifestEntry = { file: string; name?: string; src?: string; css?: string[]; imports?: string[] };

export type SiteRenderer = {
  render: SsrModule['renderSitePage'];
  /** The <link>s a page needs in the head: its stylesheets and module preloads. */
  headLinks(page: SsrPage): string;
};

const renderers = new Map<string, Promise<SiteRenderer | null>>();

/** The renderer beside this web build (dist → dist-ssr), or null when the build has none (the pages are then the app shell). */
export function siteRendererFor(webDist: string): Promise<SiteRenderer | null> {
  const entry = path.join(path.dirname(webDist), 'dist-ssr', 'ssr-entry.js');
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  let hit = renderers.get(entry);
  if (!hit) {
    hit = existsSync(entry) && existsSync(manifestFile) ? load(entry, manifestFile) : Promise.resolve(null);
    // A missing build is looked for again next time (a build may land while the server runs).
    if (existsSync(entry)) renderers.set(entry, hit);
  }
  return hit;
}

async function load(entry: string, manifestFile: string): Promise<SiteRenderer> {
  // React picks its build when first loaded: the production one unless told otherwise (tests set NODE_ENV=test).
  process.env.NODE_ENV ??= 'production';
  const mod = (await import(pathToFileURL(entry).href)) as SsrModule;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestEntry>;
  const links = new Map<SsrPage, string>();
  const webDist = path.dirname(path.dirname(manifestFile));
  const cssOf = (file: string): string | null => {
    try {
      const text = readFileSync(path.join(webDist, file), 'utf8');
      return /<\/style/i.test(text) ? null : text;
    } catch {
      return null;
    }
  };
  return {
    render: (input) => mod.renderSitePage(input),
    headLinks(page) {
      let html = links.get(page);
      if (html === undefined) links.set(page, (html = linksFor(manifest, mod.PAGE_SOURCES[page] ?? [], cssOf)));
      return html;
    },
  };
}

/** A source module's manifest entry: by its path, or (a module another chunk also imports) by its chunk's name. */
function entryOf(manifest: Record<string, ManifestEntry>, source: string): [string, ManifestEntry] | null {
  if (manifest[source]) return [source, manifest[source]];
  const name = path.basename(source).replace(/\.[tj]sx?$/, '');
  const found = Object.entries(manifest).find(([, e]) => e.name === name && !e.src);
  return found ?? null;
}

function linksFor(manifest: Record<string, ManifestEntry>, sources: string[], cssOf: (file: string) => string | null): string {
  const css = new Set<string>();
  const js = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string, e: ManifestEntry) => {
    // The entry (index.html) and what it imports are in the shell already.
    if (seen.has(key) || key === 'index.html') return;
    seen.add(key);
    js.add(e.file);
    for (const c of e.css ?? []) css.add(c);
    for (const i of e.imports ?? []) if (manifest[i]) visit(i, manifest[i]);
  };
  for (const source of sources) {
    const found = entryOf(manifest, source);
    if (found) visit(found[0], found[1]);
  }
  const index = manifest['index.html'];
  for (const c of index?.css ?? []) css.delete(c);
  // Issue 27 (paint2): the page's styles are in the page (a <style> each), so its first paint waits
  // for no other request (the stylesheets were one more round trip after the document, 562 ms on slow
  // 4G, before anything showed). Each keeps a `disabled` <link> to its file, which the browser does
  // not fetch: the app's chunk loader (Vite's preload helper) looks for a stylesheet <link> by its
  // address before adding one, so a page's chunk loaded by the app (hydration, or a move inside the
  // app) finds its styles there and fetches nothing; a chunk whose styles the page does not carry adds
  // its <link> as before. A file that cannot be read, or whose text would end the <style>, stays a link.
  const styles = [...css].map((f) => {
    const text = cssOf(f);
    const link = `<link rel="stylesheet" crossorigin href="/${f}"`;
    return text === null ? `${link}>` : `<style data-href="/${f}">${text}</style>${link} disabled>`;
  });
  return [...styles, ...[...js].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)].join('\n    ');
}
