export * from './accounts.js';
export * from './tenancy.js';
export * from './platform.js';
export * from './sales.js';
export * from './payments.js';
export * from './admin.js';
export * from './charities.js';
export * from './after-sale.js';
