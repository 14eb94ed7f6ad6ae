// Generates the next SQL migration from the schema (drizzle-kit), named after the first argument.
import { execFileSync } from 'node:child_process';
const name = process.argv[2] ?? 'change';
execFileSync('npx', ['drizzle-kit', 'generate', '--name', name], { stdio: 'inherit' });
