// The server the benchmarks run: by default the compiled JavaScript the product runs (`npm start`
// runs apps/server/dist/main.js, compiled by the same esbuild configuration), so that the figures
// are the product's; BENCH_SERVER=source loads the TypeScript sources through tsx instead.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type ServerApi = typeof import('./server-api.js');
const here = path.dirname(fileURLToPath(import.meta.url));

/** `source`: the TypeScript sources through tsx (the benchmarks that have always measured those pass true). */
export async function loadServer({ source = process.env.BENCH_SERVER === 'source' }: { source?: boolean } = {}): Promise<ServerApi & { compiled: boolean }> {
  if (source) return { ...(await import('./server-api.js')), compiled: false };
  const { compileServer, distDir } = await import('../apps/server/scripts/compile.mjs');
  await compileServer({ entry: path.join(here, 'server-api.ts'), name: 'bench-server.js' });
  const api = (await import(pathToFileURL(path.join(distDir, 'bench-server.js')).href)) as ServerApi;
  return { ...api, compiled: true };
}
