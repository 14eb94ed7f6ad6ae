import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes .br and .gz beside every built script, stylesheet, SVG and HTML file, once at build time;
 * the server sends them to browsers that accept them (@fastify/static preCompressed). Issue 13:
 * Lighthouse counted 246 KiB of uncompressed text on the event page.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'marquee-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle(error?: Error) {
      // A failed build wrote nothing: let its own error show (not a missing directory's).
      if (error || !existsSync(outDir)) return;
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const file = path.join(dir, name);
          return statSync(file).isDirectory() ? walk(file) : [file];
        });
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg|html|json|txt)$/.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
      }
    },
  };
}

// The attendee site's code in a few chunks instead of some thirty small ones (issue 13, first load
// <= 100 KB gzipped per page, bench/first-load.ts): each small file is compressed alone and loses what
// it shares with the others, about 7 KB on the checkout. `site`: what every event page needs (the
// router and data cache, features/attendee/site; the layout, the kit, the cart's state and rules);
// `site-checkout`: the checkout's form and payment code. The pages themselves (home, ticket menu,
// cart, ...) stay chunks of their own, and so do modules the consoles also import (packages/core,
// ui/, shared/): a console must never load the site's code.
const posix = (id: string) => id.replaceAll('\\', '/');
// A page and its own styles: loaded with the page, not by every other.
const PAGE = /\/features\/attendee\/[^/]+\/components\/([^/]+-page\.tsx|(event-home|ticket-menu|policy-page)\.module\.css)$/;
const CHECKOUT = /\/src\/features\/attendee\/checkout\//;
const SITE = /\/src\/(modes\/site\/|features\/attendee\/(site|event-site|cart)\/|features\/attendee\/checkout\/checkout-storage\.ts$)/;
// In the checkout folder but not the checkout page's: the success page's (and its paid order, which the
// private order page shows too), and the contact form's zod schema, which the form imports only once
// it validates (use-contact-form.ts). Issue 24: the attendee details and their answer fields, which the
// checkout loads only for an event that asks something (and the order link shares).
const NOT_CHECKOUT = /\/(success-page\.tsx|paid-order\.tsx|success\.module\.css|order-id\.ts|contact-schema\.ts|attendee-details\.tsx|attendee-details\.module\.css|answer-field\.tsx)$/;
const SITE_CHUNKS = [
  // core's donation rules, shared by the checkout page and the lazily loaded contact schema: left to
  // itself rolldown put them in the checkout page's chunk and exported a namespace it never defined
  // (the checkout failed to load; issue 21.8). A chunk of its own, as before core's order ids moved.
  { name: 'donation', test: (id: string) => /\/packages\/core\/src\/donation\.ts$/.test(posix(id)), priority: 30 },
  // Issue 28: core's embed protocol (the widget's path prefix and return parameters), shared by the
  // site's entry and its checkout: left to itself rolldown put it in the site entry's chunk and
  // exported a namespace it never defined (every site page failed to load), as with donation above.
  { name: 'embed', test: (id: string) => /\/packages\/core\/src\/embed\.ts$/.test(posix(id)), priority: 30 },
  { name: 'site-checkout', test: (id: string) => CHECKOUT.test(posix(id)) && !SITE.test(posix(id)) && !NOT_CHECKOUT.test(posix(id)), priority: 20 },
  { name: 'site', test: (id: string) => SITE.test(posix(id)) && !PAGE.test(posix(id)), priority: 10 },
];

// `npm run build` builds twice: the browser's app into dist (with a manifest, from which the server
// links each server-rendered page's own chunks and stylesheets in its head) and the attendee site's
// server renderer (src/modes/site/ssr-entry.tsx) into dist-ssr, which the server loads at start.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), precompress()],
  server: {
    port: 5173,
    host: true,
    allowedHosts: ['.localhost'],
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  // The workspace package ships TypeScript: bundled into the renderer, not left for Node to load.
  ssr: { noExternal: ['@marquee/core'] },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', sourcemap: false, target: 'node20', copyPublicDir: false }
    : {
        outDir: 'dist',
        sourcemap: false,
        chunkSizeWarningLimit: 800,
        manifest: true,
        rolldownOptions: { output: { codeSplitting: { groups: SITE_CHUNKS, includeDependenciesRecursively: false } } },
      },
}));
