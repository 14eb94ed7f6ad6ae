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

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@marquee/core' || args.path.startsWith('@marquee/core/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Compiles `entry` (a TypeScript file) to one ES module at dist/`name`, the SQL functions beside it. */
export async function compileServer({ entry, name }) {
  mkdirSync(distDir, { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: path.join(distDir, name),
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
