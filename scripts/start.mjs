// npm start: build the web app and compile the server if their sources changed since the last
// build, then run the compiled server in this process (which migrates the database and seeds demo data on first
// start). No TypeScript loader at start: that cost ~2 s of every start (issue 13 "Start").
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const serverDist = path.join(root, 'apps/server/dist/main.js');
const serverSources = ['apps/server/src', 'apps/server/scripts', 'packages/core/src'].map((p) => path.join(root, p));

const sources = ['apps/web/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/core/src'].map((p) => path.join(root, p));
const builtAt = existsSync(dist) ? statSync(dist).mtimeMs : 0;
const changedAt = Math.max(...sources.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (changedAt > builtAt) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const changedSince = (paths) => Math.max(...paths.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (changedSince(serverSources) > (existsSync(serverDist) ? statSync(serverDist).mtimeMs : 0)) {
  console.log('Compiling the server…');
  const build = spawnSync(process.execPath, [path.join(root, 'apps/server/scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// `--prepare`: only the builds (the browser tests run it once before starting two servers at once).
if (process.argv.includes('--prepare')) process.exit(0);

// The compiled server runs in this process rather than a second node: one Node start instead of
// two. Without --enable-source-maps (parsing the 1.6 MB map took about 0.15 s of every start):
// stack traces name dist/main.js, whose functions keep their names and whose modules are marked
// with their source paths; NODE_OPTIONS=--enable-source-maps maps them (docs/decisions.md).
process.chdir(root);
await import(pathToFileURL(serverDist).href);
