export * from './accounts.js';
export * from './tenancy.js';
export * from './platform.js';
