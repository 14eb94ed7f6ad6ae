// Moved to test/actors.ts, the one test-actor fixture; kept as a re-export so that tests written
// against this path keep compiling. Import from test/actors.ts in new tests.
export * from '../../../test/actors.js';
