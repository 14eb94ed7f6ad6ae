// What the benchmarks use of the server, in one module so that bench/server.ts can compile it the
// way the product is compiled (apps/server/scripts/compile.mjs) and load that.
export { buildApp } from '../apps/server/src/app.js';
export { loadConfig } from '../apps/server/src/config.js';
export { openDatabase } from '../apps/server/src/db/client.js';
export { checkinScans, eventQuestions, events, jobs, memberships, outbox, tickets, ticketTypes, users, waitlistEntries, waitlistSettings } from '../apps/server/src/db/schema/index.js';
export { ensureGlobalFeeDefaults } from '../apps/server/src/modules/fees/service.js';
export { createTenant } from '../apps/server/src/modules/tenant-creation/create-tenant.js';
export { hashPassword } from '../apps/server/src/platform/auth/passwords.js';
export { signTicketCode } from '../apps/server/src/modules/checkin/ticket-code.js';
export { setWaitingRoom } from '../apps/server/src/modules/waiting-room/service.js';
// Issue 27 (bench/seating.ts): an event's seats written as the console writes them.
export { eventSeatRowsOf } from '../apps/server/src/modules/seating/event-seating.js';
export { analyzeSeating, insertEventSeating, TAKE_SEATS_SQL } from '../apps/server/src/modules/seating/repository.js';
// Issue 26 (reads): how many reads the fast path answered and how many went the full way (bench/rush-reads.ts).
export { fastPathCounts } from '../apps/server/src/modules/public-site/fast-path.js';
