export * from './accounts.js';
export * from './tenancy.js';
export * from './platform.js';
export * from './sales.js';
export * from './payments.js';
export * from './admin.js';
export * from './charities.js';
export * from './after-sale.js';
export * from './payouts.js';
export * from './reports.js';
export * from './checkin.js';
export * from './waiting-room.js';
export * from './templates.js';
export * from './buyer.js';
export * from './mailout.js';
export * from './connect.js';
export * from './audit.js';
export * from './transfers.js';

export * from './webhooks.js';

export * from './waitlist.js';

export * from './drawers.js';

export * from './questions.js';

export * from './seating.js';

export * from './embed.js';

export * from './series.js';
export * from './wallet.js';
