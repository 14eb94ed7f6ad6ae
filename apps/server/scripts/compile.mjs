// The one esbuild configuration of the server (used by build.mjs for `npm start` and by bench/ to
// load the same compiled code the product runs). Packages stay external (loaded from node_modules
// as usual); only our sources and the workspace's @marquee/core (which ships TypeScript) are
// bundled. The output must sit in apps/server/dist: the bundle finds the migrations (../drizzle) and
// the SQL functions (./functions) relative to itself, and its packages in the repository's node_modules.
import { build } from 'esbuild';
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const distDir = path.join(serverDir, 'dist');

// Packages that only a few rare requests use and that cost a noticeable part of a start to load
// (sanitize-html brings postcss: about 0.15 s): their default export is a function, so the bundle
// gets a stand-in that loads the package at its first call (bench/README.md "Start").
const LAZY_FUNCTION_PACKAGES = new Set(['sanitize-html']);

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (LAZY_FUNCTION_PACKAGES.has(args.path) && args.namespace !== 'lazy') return { path: args.path, namespace: 'lazy' };
      if (args.path === '@marquee/core' || args.path.startsWith('@marquee/core/')) return undefined;
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: `import { createRequire } from 'node:module';
        let loaded;
        export default function lazy(...args) {
          loaded ??= createRequire(import.meta.url)(${JSON.stringify(args.path)});
          return loaded(...args);
        }`,
      resolveDir: serverDir,
    }));
  },
};

/** Compiles `entry` (a TypeScript file) to one ES module at dist/`name`, the SQL functions beside it. */
export async function compileServer({ entry, name }) {
  mkdirSync(distDir, { recursive: true });
  // The server and, beside it, the ticket PDFs' worker thread (modules/fulfilment/pdf-workers.ts loads dist/pdf-worker.js).
  await build({
    entryPoints: { [name.replace(/\.js$/, '')]: entry, 'pdf-worker': path.join(serverDir, 'src/modules/fulfilment/pdf-worker.ts') },
    outdir: distDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  cpSync(path.join(serverDir, 'src/db/functions'), path.join(distDir, 'functions'), { recursive: true });
}
