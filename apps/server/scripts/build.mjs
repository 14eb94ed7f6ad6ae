// Compiles the server to one ES module (apps/server/dist/main.js) so `npm start` runs JavaScript
// instead of compiling TypeScript at every start (issue 13 "Start"). See compile.mjs.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { compileServer, distDir, serverDir } from './compile.mjs';

rmSync(distDir, { recursive: true, force: true });
await compileServer({ entry: path.join(serverDir, 'src/main.ts'), name: 'main.js' });
