// Runs the Dockerfile's build steps without Docker (this machine cannot pull images; README,
// "Container"): the committed tree (`git archive HEAD`, what the build context holds) is unpacked
// into a temporary directory, every RUN of the build stage runs there in order with the stage's
// ENV, and the runtime stage's CMD is started on a fresh DATA_DIR until the HEALTHCHECK command
// passes; then, in that pruned tree, `npm run backup` is refused while the server runs and works
// once it stopped, and `npm run restore` restores it (docs/backups.md, "In the container").
// It does not check the base image, COPY --from, USER or file ownership: only Docker can.
//
//   node scripts/check-dockerfile.mjs            (KEEP=1 keeps the directory)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const text = readFileSync(path.join(root, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
const stages = [];
for (const line of text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))) {
  const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line);
  if (op.toUpperCase() === 'FROM') stages.push({ name: /\sAS\s+(\S+)$/i.exec(rest)?.[1], steps: [] });
  else stages.at(-1)?.steps.push([op.toUpperCase(), rest]);
}
const build = stages.find((s) => s.name === 'build');
const runtime = stages.at(-1);

/** ENV lines: `A=1 B=2` (quotes allowed). */
function envOf(stage) {
  const env = {};
  for (const [op, rest] of stage.steps) {
    if (op !== 'ENV') continue;
    for (const [, k, v] of rest.matchAll(/(\w+)=("[^"]*"|\S*)/g)) env[k] = v.replace(/^"|"$/g, '');
  }
  return env;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'marquee-docker-check-'));
const data = mkdtempSync(path.join(os.tmpdir(), 'marquee-docker-data-'));
let server;
const cleanup = () => {
  server?.kill('SIGTERM');
  if (!process.env.KEEP) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
};
process.on('exit', cleanup);

console.log(`== the committed tree into ${dir}`);
const archive = execFileSync('git', ['archive', '--format=tar', 'HEAD'], { cwd: root, maxBuffer: 1 << 30 });
execFileSync('tar', ['-x', '-C', dir], { input: archive });

const buildEnv = { ...process.env, ...envOf(build) };
for (const [op, cmd] of build.steps) {
  if (op !== 'RUN') continue;
  console.log(`== RUN ${cmd}`);
  const started = Date.now();
  const res = spawnSync('/bin/sh', ['-c', cmd], { cwd: dir, env: buildEnv, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error(`FAILED (${res.status}): ${cmd}`);
    process.exit(1);
  }
  console.log(`   ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const runEnv = { ...process.env, ...envOf(runtime), DATA_DIR: data, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
delete runEnv.DATABASE_URL;
const [, cmdJson] = /^(\[.*\])$/.exec(runtime.steps.find(([op]) => op === 'CMD')[1]);
const [cmd, ...args] = JSON.parse(cmdJson);
console.log(`== CMD ${cmd} ${args.join(' ')} (DATA_DIR=${data}, PORT=${port})`);
server = spawn(cmd === 'node' ? process.execPath : cmd, args, { cwd: dir, env: runEnv, stdio: ['ignore', 'inherit', 'inherit'] });
server.on('exit', (code) => {
  if (code !== null && code !== 0) {
    console.error(`the server exited with ${code}`);
    process.exit(1);
  }
});

const [, checkJson] = /CMD\s+(\[.*\])$/.exec(runtime.steps.find(([op]) => op === 'HEALTHCHECK')[1]);
const [, ...checkArgs] = JSON.parse(checkJson);
const deadline = Date.now() + 180_000;
for (;;) {
  const res = spawnSync(process.execPath, checkArgs, { env: runEnv, timeout: 10_000 });
  if (res.status === 0) break;
  if (Date.now() > deadline) {
    console.error('HEALTHCHECK never passed');
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 1000));
}
const health = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
console.log(`== HEALTHCHECK passed: ${JSON.stringify(health)}`);

// The backup commands, as an operator runs them in the image (the pruned tree).
const npm = (args) => {
  const res = spawnSync('npm', args, { cwd: dir, env: { ...runEnv, INIT_CWD: data }, encoding: 'utf8' });
  return { status: res.status, out: `${res.stdout}${res.stderr}` };
};
const busy = npm(['run', 'backup', '--', 'while-running.tar.gz']);
if (busy.status !== 1 || !busy.out.includes('is in use by a Marquee server')) {
  console.error(`npm run backup while the server runs: expected a refusal, got ${busy.status}:\n${busy.out}`);
  process.exit(1);
}
console.log('== npm run backup while the server runs: refused');
server.removeAllListeners('exit');
const stopped = new Promise((resolve) => server.once('exit', resolve));
server.kill('SIGTERM');
await stopped;
server = undefined;
for (const [args, what] of [
  [['run', 'backup', '--', path.join(data, '..', `${path.basename(data)}.tar.gz`)], 'backup'],
  [['run', 'restore', '--', path.join(data, '..', `${path.basename(data)}.tar.gz`), `${data}-restored`], 'restore'],
]) {
  const res = npm(args);
  if (res.status !== 0) {
    console.error(`npm run ${what} failed (${res.status}):\n${res.out}`);
    process.exit(1);
  }
  console.log(`== npm ${args.join(' ')}\n${res.out.split('\n').filter((l) => /^(Backed up|Restored)/.test(l)).join('\n')}`);
}
rmSync(`${data}.tar.gz`, { force: true });
rmSync(`${data}-restored`, { recursive: true, force: true });
console.log('Dockerfile build steps: OK (not checked here: the base image, COPY, USER, ownership: Docker only)');
process.exit(0);
