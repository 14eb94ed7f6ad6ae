import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_ENV_KEYS, loadConfig } from '../config.js';
import { startServer, type TestServer } from '../../test/harness.js';

// Issue 26: the Dockerfile and the compose file cannot be built or run on this machine (no image
// pulls), so what can be checked here is: the compose file's shape and that every variable it
// gives the app is one the app reads and accepts as given; the Dockerfile's stages, user, health
// check (run against a real server) and start command. scripts/check-dockerfile.mjs runs the
// Dockerfile's build steps themselves in a clean copy.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const compose = parse(readFileSync(path.join(repo, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; ports?: string[]; healthcheck?: unknown }>;
  volumes: Record<string, unknown>;
};

/** Compose's own interpolation for what the file uses: ${VAR}, ${VAR:-default}, ${VAR:?message}. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    if (env[name]) return env[name]!;
    if (op === '?') throw new Error(`${name}: ${arg}`);
    return op === '-' ? (arg ?? '') : '';
  });
}

/** The Dockerfile as instructions (continuation lines joined, comments dropped), split into stages. */
function dockerfile() {
  const text = readFileSync(path.join(repo, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: Array<{ from: string; name: string; steps: Array<[string, string]> }> = [];
  for (const line of lines) {
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest!)!;
      stages.push({ from: from!, name: name ?? String(stages.length), steps: [] });
    } else stages.at(-1)?.steps.push([op!.toUpperCase(), rest!]);
  }
  return stages;
}

describe('docker-compose.yml', () => {
  const app = compose.services.app!;
  const env = (given: Record<string, string> = { MARQUEE_SECRET: 'x'.repeat(64) }) =>
    Object.fromEntries(Object.entries(app.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), given)]));

  it('runs the app built from this Dockerfile beside PostgreSQL, an S3-compatible store and a mail catcher', () => {
    expect(app.build).toBe('.');
    expect(compose.services.postgres?.image).toMatch(/^postgres:1[5-9]/);
    expect(compose.services.minio?.image).toMatch(/^minio\/minio/);
    expect(compose.services.mailpit?.image).toMatch(/^axllent\/mailpit/);
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dep of Object.keys(service.depends_on ?? {})) expect(compose.services[dep], `${name} depends on ${dep}`).toBeDefined();
    }
    expect(app.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(app.ports).toContain('3000:3000');
  });

  it('gives the app only variables it reads, and every one parses (no typo goes unnoticed)', () => {
    const given = env();
    const unknown = Object.keys(given).filter((k) => !CONFIG_ENV_KEYS.includes(k));
    expect(unknown).toEqual([]);
    const config = loadConfig(given);
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe('/data');
    expect(config.secret).toBe('x'.repeat(64));
    expect(config.storage).toMatchObject({ driver: 's3', bucket: 'marquee', endpoint: 'http://minio:9000', forcePathStyle: true });
    // Each address names a service of the file, on the port that service listens on.
    expect(new URL(config.databaseUrl!).host).toBe('postgres:5432');
    expect(new URL(config.smtpUrl!).host).toBe('mailpit:1025');
    const minio = compose.services.minio!.environment!;
    expect(config.storage.driver === 's3' && config.storage.credentials).toEqual({ accessKeyId: minio.MINIO_ROOT_USER, secretAccessKey: minio.MINIO_ROOT_PASSWORD });
    const pg = compose.services.postgres!.environment!;
    const url = new URL(config.databaseUrl!);
    expect([url.username, url.password, url.pathname]).toEqual([pg.POSTGRES_USER, pg.POSTGRES_PASSWORD, `/${pg.POSTGRES_DB}`]);
  });

  it('refuses to start without a secret of its own', () => {
    expect(() => env({})).toThrow('MARQUEE_SECRET: set MARQUEE_SECRET to 32 or more random characters');
    expect(() => loadConfig(env({ MARQUEE_SECRET: 'too-short' }))).toThrow();
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile();
  const [build, runtime] = [stages.find((s) => s.name === 'build')!, stages.at(-1)!];
  const runs = (s: typeof build) => s.steps.filter(([op]) => op === 'RUN').map(([, r]) => r);
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds in one stage with the commands CI runs, and prunes the dev tools', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(runs(build)).toEqual(['npm ci --no-audit --no-fund', 'npm run build', 'node apps/server/scripts/build.mjs', 'npm prune --omit=dev --no-audit --no-fund']);
    expect(readFileSync(path.join(repo, '.ci/run'), 'utf8')).toContain('npm ci --no-audit --no-fund');
  });

  it('runs as a user that is not root, the compiled server, with its data in a volume', () => {
    const steps = runtime.steps;
    const user = steps.filter(([op]) => op === 'USER').at(-1)?.[1];
    expect(user).toBe('node');
    expect(steps.find(([op]) => op === 'CMD')?.[1]).toBe('["node", "--enable-source-maps", "apps/server/dist/main.js"]');
    expect(readFileSync(path.join(repo, 'apps/server/scripts/build.mjs'), 'utf8')).toContain("name: 'main.js'");
    expect(steps.find(([op]) => op === 'ENV')?.[1]).toMatch(/DATA_DIR=\/data/);
    expect(steps.find(([op]) => op === 'VOLUME')?.[1]).toBe('["/data"]');
    expect(steps.find(([op]) => op === 'EXPOSE')?.[1]).toBe('3000');
  });

  it('health check: its own command passes against a running server, and fails when nothing answers', async () => {
    const check = runtime.steps.find(([op]) => op === 'HEALTHCHECK')![1];
    const [, json] = /CMD\s+(\[.*\])$/.exec(check)!;
    const [cmd, ...args] = JSON.parse(json!) as string[];
    expect(cmd).toBe('node');
    // Not spawnSync: the server answering it runs in this process.
    const run = (port: number) =>
      new Promise<number | null>((resolve) => spawn(process.execPath, args, { env: { ...process.env, PORT: String(port) }, timeout: 20_000 }).on('exit', (code) => resolve(code)));
    expect(await run(server.port)).toBe(0);
    expect(await run(1)).toBe(1);
  });

  it('.dockerignore keeps dependencies, builds, data and secrets out of the build context', () => {
    const ignored = readFileSync(path.join(repo, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const p of ['.git', '**/node_modules', '**/dist', 'data', '.env']) expect(ignored).toContain(p);
  });
});
