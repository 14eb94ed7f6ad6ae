import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
    closeBundle() {
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
    : { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800, manifest: true },
}));
