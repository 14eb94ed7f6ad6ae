import { publicOrigin, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { buildApp } from './app.js';
import { installGracefulShutdown } from './shutdown.js';
import { DEMO_ORGANISER_EMAIL, DEMO_TENANT, seedIfEmpty } from './seed.js';
import path from 'node:path';
import { DEMO_EVENT } from './modules/events/demo.js';
import { startTracing } from './platform/tracing.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'pglite') });
// Several nodes may start together (a deploy): one migrates and seeds under the startup lock, the
// others wait for it and find both done (docs/deploy.md).
const migrated = await database.migrate();
// Issue 26: OpenTelemetry only when OTEL_EXPORTER_OTLP_ENDPOINT is set (loaded then, not otherwise).
const tracing = await startTracing({ endpoint: config.otelEndpoint });
const app = await buildApp(config, database, { tracing });
if (migrated) app.log.info('database migrated');
const { seeded } = await database.exclusively(() => seedIfEmpty(app.deps));
app.deps.jobs.start();
await app.listen({ port: config.port, host: config.host });

const platform = publicOrigin(config);
const tenant = publicOrigin(config, DEMO_TENANT.url);
const lines = [
  '',
  '  Marquee is running.',
  `  Database:          ${database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${path.join(config.dataDir, 'pglite')}`}${seeded ? ' (demo data seeded)' : ''}`,
  `  Platform console:  ${platform}/`,
  `  Tenant console:    ${tenant}/   (demo tenant "${DEMO_TENANT.name}")`,
  `  Attendee site:     ${tenant}/${DEMO_EVENT.urlName}/   (demo event; code ${DEMO_EVENT.discountCode}; test card 4242 4242 4242 4242)`,
  `  API docs:          ${platform}/api/docs`,
  `  Platform admin:    ${config.adminEmail} / ${config.adminPassword === 'Marquee-Admin-1' ? 'Marquee-Admin-1 (demo default; set ADMIN_PASSWORD)' : '(ADMIN_PASSWORD)'}`,
  `  Demo organiser:    ${DEMO_ORGANISER_EMAIL} / same password as the admin at first seed`,
  `  Mail:              ${config.smtpUrl ? 'SMTP' : `kept in the outbox: ${platform}/outbox`}`,
  '',
];
console.log(lines.join('\n'));

installGracefulShutdown(app, database);
