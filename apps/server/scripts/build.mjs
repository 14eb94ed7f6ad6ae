// Compiles the server to one ES module (apps/server/dist/main.js) so `npm start` runs JavaScript
// instead of compiling TypeScript at every start (issue 13 "Start"). Packages stay external
// (loaded from node_modules as usual); only our sources and the workspace's @marquee/core (which
// ships TypeScript) are bundled. SQL function files are copied beside the bundle.
import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(server, 'dist');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@marquee/core' || args.path.startsWith('@marquee/core/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: [path.join(server, 'src/main.ts')],
  outfile: path.join(out, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});
cpSync(path.join(server, 'src/db/functions'), path.join(out, 'functions'), { recursive: true });
