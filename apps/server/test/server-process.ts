import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { compileServer, distDir, serverDir } from '../scripts/compile.mjs';
import { Client } from './harness.js';

// Real server processes for the tests of issue 26 (SIGTERM, several nodes starting at once, a
// rolling restart behind HAProxy): the server compiled as `npm start` compiles it (the same esbuild
// configuration and entry, src/main.ts) and run as `npm start` runs it, `node dist/<file>.js`.

export const REPO = path.resolve(serverDir, '../..');

let compiled: Promise<string> | undefined;
/** Compiles src/main.ts once per test process, under a name of its own (test files run in parallel). */
export function compiledServer(): Promise<string> {
  compiled ??= (async () => {
    const name = `main-test-${process.pid}.js`;
    await compileServer({ entry: path.join(serverDir, 'src/main.ts'), name });
    const file = path.join(distDir, name);
    process.once('exit', () => {
      rmSync(file, { force: true });
      rmSync(`${file}.map`, { force: true });
    });
    return file;
  })();
  return compiled;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

export type Exit = { code: number | null; signal: NodeJS.Signals | null; at: number };

export type ServerProcess = {
  name: string;
  port: number;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<Exit>;
  /** Sends SIGTERM and waits for the exit; `ms` from the signal to the exit. */
  terminate(): Promise<Exit & { ms: number }>;
  kill(): Promise<void>;
};

/** The environment of a test process, without what vitest put in it for its own workers. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(VITEST|NODE_OPTIONS$|TEST_DATABASE_URL$|DATABASE_URL$|MARQUEE_)/.test(k)) env[k] = v;
  return env;
}

/** Starts one node on `port`; resolves once /api/health answers 200 (or `waitHealthy: false`: at once). */
export async function startServerProcess(opts: { name: string; port: number; env: Record<string, string>; waitHealthy?: boolean; startTimeoutMs?: number }): Promise<ServerProcess> {
  const main = await compiledServer();
  let log = '';
  const child = spawn(process.execPath, [main], {
    cwd: REPO,
    env: {
      ...baseEnv(),
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ORDERS_PER_MINUTE: '1000000',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const proc: ServerProcess = {
    name: opts.name,
    port: opts.port,
    child,
    output: () => log,
    exited,
    async terminate() {
      const at = Date.now();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const exit = await exited;
      return { ...exit, ms: exit.at - at };
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  if (opts.waitHealthy === false) return proc;
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    const up = await new Client(opts.port, `localhost:${opts.port}`).get('/api/health').then((r) => r.status === 200, () => false);
    if (up) return proc;
    if (child.exitCode !== null || child.signalCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.kill();
  throw new Error(`${opts.name} did not start:\n${log.slice(-3000)}`);
}
