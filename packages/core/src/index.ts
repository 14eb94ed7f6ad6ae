export * from './messages.js';
export * from './messages-site.js';
export * from './errors.js';
export * from './money.js';
export * from './donation.js';
export * from './roles.js';
export * from './reserved.js';
export * from './phone.js';
export * from './schemas/common.js';
export * from './schemas/list.js';
export * from './schemas/accounts.js';
export * from './schemas/fees.js';
export * from './pricing/price-order.js';
export * from './pricing/line-discounts.js';
export * from './schemas/site-context.js';
export * from './schemas/outbox.js';
export * from './schemas/tenants.js';
export * from './schemas/platform-users.js';
export * from './schemas/staff.js';
export * from './schemas/policies.js';
export * from './schemas/payment-settings.js';
export * from './schemas/payment-account.js';
export * from './schemas/dashboard.js';
export * from './schemas/tickets.js';
export * from './availability.js';
export * from './rules.js';
export * from './schemas/events.js';
export * from './schemas/charities.js';
export * from './schemas/templates.js';
export * from './order-id.js';
export * from './schemas/orders.js';
export * from './schemas/order-admin.js';
export * from './refund-split.js';
export * from './schemas/reports.js';
export * from './reports/figures.js';
export * from './reports/search.js';
export * from './text.js';
export * from './schemas/payouts.js';
export * from './schemas/cash-drawers.js';
export * from './payouts/payout-line.js';
export * from './checkin.js';
export * from './schemas/checkin.js';
export * from './schemas/waiting-room.js';
export * from './ticket-menu.js';
export * from './schemas/buyer.js';
export * from './schemas/transfers.js';
export * from './schemas/mailout.js';
export * from './schemas/api-keys.js';
export * from './schemas/audit.js';
export * from './schemas/webhooks.js';

export * from './schemas/waitlist.js';

export * from './schemas/box-office.js';

export * from './schemas/questions.js';
export * from './attendee-answers.js';

export * from './seating.js';
export * from './schemas/seating.js';
export * from './schemas/embed.js';
export * from './embed.js';


export * from './schemas/series.js';
export * from './brand.js';
