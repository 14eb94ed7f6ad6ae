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
  return {
    render: (input) => mod.renderSitePage(input),
    headLinks(page) {
      let html = links.get(page);
      if (html === undefined) links.set(page, (html = linksFor(manifest, mod.PAGE_SOURCES[page] ?? [])));
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

function linksFor(manifest: Record<string, ManifestEntry>, sources: string[]): string {
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
  return [...[...css].map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`), ...[...js].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)].join('\n    ');
}
