// The module map, as rules that CI checks (`npm run lint:deps`, right after the typecheck).
// docs/architecture.md draws the same map. An arrow is "imports"; type-only imports count too
// (they tie two modules together as much as value imports do). Tests (*.test.ts) are not cruised.
//
// Each server module (apps/server/src/modules/<name>) and each web feature (apps/web/src/features/
// <name>) lists below the others it may import. The lists must form no cycle: this file refuses to
// load otherwise, so a module cycle can only come back through an edge that breaks a rule. A new
// module or feature must be added to its map (this file says so when it is missing).
//
// Edges that broke a rule when the rules were written are listed in
// .dependency-cruiser-known-violations.json and tolerated until they are removed (issue 22, second
// wave); any other forbidden edge fails the check. After removing some, regenerate that list with
// `npm run lint:deps:baseline` — never to hide a new one.

const fs = require('node:fs');
const path = require('node:path');

const SERVER = '^apps/server/src/';
const MODULE = `${SERVER}modules/`;
const WEB = '^apps/web/src/';
const FEATURE = `${WEB}features/`;

/** Server modules: who may import whom. The map goes down: a module never imports one above it. */
const SERVER_MODULES = {
  // the attendee's path: public-site -> checkout -> orders -> events, discounts; payments, fulfilment follow orders
  // issue 27 (paint): a seated event's ticket menu carries its seat map's preview image
  'event-pages': ['page-builder', 'public-site', 'seating'],
  // the ticket menu offers the waiting list only when the organiser keeps one (issue 24); it says whether the event sells seats (issue 27)
  'public-site': ['checkout', 'events', 'tenants', 'ticket-types', 'waitlist', 'seating'],
  // issue 28: a widget checkout may return to the tenant's websites allowed to embed (embed/allowed-origins.ts)
  checkout: ['discounts', 'embed', 'events', 'fees', 'orders', 'questions', 'seating', 'ticket-types', 'waiting-room'],
  // issue 27: venue layouts, an event's seats and the buyers' seat holds (the checkout checks and attaches them)
  seating: ['events'],
  'waiting-room': ['events'],
  // issue 24's waiting list for sold-out tickets: offers are checkout holds, removals give an order's hold back
  waitlist: ['checkout', 'events', 'orders', 'reports', 'seating'],
  // the box office (issue 23): the checkout's one price and one inventory, paid at once, tickets issued and admitted
  'box-office': ['cash-drawers', 'checkin', 'checkout', 'fulfilment', 'orders', 'seating'],
  fulfilment: ['checkin', 'events', 'order-admin', 'orders', 'questions', 'wallet'],
  // issue 24: a buyer passes a ticket on; the door and the order pages read its table themselves
  transfers: ['checkin', 'events', 'fulfilment', 'order-admin', 'orders'],
  // issue 24: the attendees' names and the organiser's questions (an order's answers use order-admin's access rules)
  questions: ['events', 'order-admin'],
  'order-admin': ['cash-drawers', 'events', 'orders', 'payments', 'payouts', 'seating'],
  payments: ['orders'],
  orders: ['discounts', 'events', 'seating'],
  checkin: [],
  // the console: an event and what hangs off it
  discounts: ['events', 'ticket-types'],
  'ticket-types': ['events'],
  // issue 28: a series is a parent of ordinary events; its dates are made, moved and cancelled through events; its export is the reports' sources
  series: ['events', 'reports', 'ticket-types'],
  mailout: ['events', 'policies'],
  'page-builder': ['events', 'templates'],
  events: ['charities', 'policies'],
  // money after the sale
  payouts: ['orders', 'reports'],
  // issue 23 part B: a staff member's cash drawer; the box office's cash sale and refunds take cash into it
  'cash-drawers': ['reports'],
  reports: [],
  'platform-dashboard': ['reports', 'tenants'],
  // a tenant and its settings: a new tenant is made above them all
  'tenant-creation': ['accounts', 'fees', 'payment-settings', 'tenants'],
  'payment-settings': ['fees', 'tenants'],
  fees: ['tenants'],
  charities: ['tenants'],
  policies: ['tenants'],
  templates: ['tenants'],
  staff: ['accounts', 'tenants'],
  'platform-users': ['accounts', 'tenants'],
  tenants: [],
  accounts: [],
  // on their own
  // issue 28: wallet passes (Apple's .pkpass, Google's signed save link) built from one ticket's facts; fulfilment fills them
  wallet: [],
  files: [],
  health: [],
  outbox: [],
  site: [],
  // issue 25: API keys and the audit log (written by every module through platform/audit.ts)
  'api-keys': [],
  audit: [],
  // issue 28: the websites allowed to embed the ticket widget, its pages and its script
  embed: [],
  // outgoing webhooks (issue 25): modules emit domain events through platform/domain-events.ts, never import it
  webhooks: [],
};

/** Web features: a feature imports another only for what it shows of it (a panel on its page). */
const WEB_FEATURES = {
  events: ['box-office', 'charities', 'discount-codes', 'event-pages', 'mailout', 'order-admin', 'policies', 'questions', 'seating', 'staff', 'ticket-types', 'transfers', 'waitlist'],
  checkin: ['events'],
  'discount-codes': ['ticket-types'],
  mailout: ['policies', 'ticket-types'],
  'order-admin': ['payouts', 'questions', 'reports', 'transfers'],
  questions: [],
  payouts: ['reports'],
  // issue 23 part B: a seller's own cash drawer and the admin's list of them
  'cash-drawers': [],
  reports: ['tenants'],
  // the platform dashboard shows the reports' sales by channel (issue 23)
  'platform-dashboard': ['reports', 'tenants'],
  'tenant-info': ['tenants'],
  tenants: ['fees', 'payment-settings', 'staff'],
  fees: ['payment-settings'],
  accounts: [],
  // issue 27: the ticket menu's seat map, the cart's and the checkout's seats
  attendee: ['seating'],
  waitlist: [],
  // issue 28: the series editor links to each date's ordinary event pages by URL only
  series: [],
  charities: [],
  'event-pages': [],
  legal: [],
  transfers: [],
  outbox: [],
  'payment-settings': [],
  'platform-users': [],
  policies: [],
  staff: [],
  templates: [],
  'ticket-types': [],
  'api-keys': [],
  audit: [],
  webhooks: [],
  'box-office': ['ticket-types'],
  seating: ['ticket-types'],
  // issue 28: the console's "Sell on your website" page (allowed websites, the snippets)
  embed: [],
};

/** Refuses a map that names a folder that does not exist, misses one that does, or has a cycle. */
function checkMap(what, dir, map) {
  const folders = fs
    .readdirSync(path.join(__dirname, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const missing = folders.filter((f) => !(f in map));
  if (missing.length) throw new Error(`.dependency-cruiser.cjs: add ${missing.map((m) => `${dir}/${m}`).join(', ')} to the ${what} map`);
  for (const [name, allowed] of Object.entries(map)) {
    for (const target of [name, ...allowed]) {
      if (!folders.includes(target)) throw new Error(`.dependency-cruiser.cjs: the ${what} map names ${dir}/${target}, which does not exist`);
    }
  }
  const state = {};
  const visit = (name, trail) => {
    if (state[name] === 'done') return;
    if (state[name] === 'open') {
      throw new Error(`.dependency-cruiser.cjs: the ${what} map has a cycle: ${[...trail.slice(trail.indexOf(name)), name].join(' -> ')}`);
    }
    state[name] = 'open';
    for (const next of map[name]) visit(next, [...trail, name]);
    state[name] = 'done';
  };
  for (const name of Object.keys(map)) visit(name, []);
}
checkMap('server module', 'apps/server/src/modules', SERVER_MODULES);
checkMap('web feature', 'apps/web/src/features', WEB_FEATURES);

const escape = (name) => name.replace(/[-]/g, '\\-');
const mapRules = (ruleName, root, map) =>
  Object.entries(map).map(([name, allowed]) => ({
    name: `${ruleName}:${name}`,
    comment: `${root.slice(1)}${name} may import ${allowed.length ? allowed.join(', ') : 'no other'}, nothing else of its kind (the map in .dependency-cruiser.cjs)`,
    severity: 'error',
    from: { path: `${root}${escape(name)}/` },
    to: { path: root, pathNot: `${root}(${[name, ...allowed].map(escape).join('|')})/` },
  }));

module.exports = {
  forbidden: [
    // ---- packages ------------------------------------------------------------------------------
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'packages/core is pure and shared by the server and the web: it imports neither of them (nor e2e, bench, scripts).',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(apps|e2e|bench|scripts)/' },
    },
    {
      name: 'core-no-io',
      comment: 'packages/core has no I/O: no Node built-ins (node:fs, node:crypto, ...).',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'apps-apart',
      comment: 'The server and the web share code through packages/core only.',
      severity: 'error',
      from: { path: '^apps/(server|web)/' },
      to: { path: '^apps/(server|web)/', pathNot: '^apps/$1/' },
    },

    // ---- server --------------------------------------------------------------------------------
    {
      name: 'platform-and-db-import-no-module',
      comment: 'platform/ (guard, errors, jobs, mail, storage, payments) and db/ are below every module.',
      severity: 'error',
      from: { path: `${SERVER}(platform|db)/` },
      to: { path: MODULE },
    },
    {
      name: 'no-routes-across-modules',
      comment:
        "A module's routes (routes.ts, *-routes.ts) are its HTTP edge, registered by app.ts only: what another module needs lives in the owning module's service or another of its files.",
      severity: 'error',
      from: { path: `${MODULE}([^/]+)/` },
      to: { path: `${MODULE}[^/]+/(routes|[^/]*-routes)\\.ts$`, pathNot: `${MODULE}$1/` },
    },
    ...mapRules('server-module-map', MODULE, SERVER_MODULES),
    {
      name: 'src-imports-no-test',
      comment: 'Test helpers live under apps/server/test/; code under src/ never imports them (only tests do).',
      severity: 'error',
      from: { path: SERVER },
      to: { path: '^apps/server/test/' },
    },

    // ---- web -----------------------------------------------------------------------------------
    {
      name: 'web-ui-is-the-bottom',
      comment: 'ui/ (shared components, the API client) imports nothing of app, modes, features or shared.',
      severity: 'error',
      from: { path: `${WEB}ui/` },
      to: { path: `${WEB}(app|modes|features|shared)/` },
    },
    {
      name: 'web-shared-imports-no-feature',
      comment: 'shared/ (the hooks every feature needs) imports ui/ and core only.',
      severity: 'error',
      from: { path: `${WEB}shared/` },
      to: { path: `${WEB}(app|modes|features)/` },
    },
    {
      name: 'web-features-import-no-mode',
      comment: 'A mode mounts features; a feature never imports a mode.',
      severity: 'error',
      from: { path: FEATURE },
      to: { path: `${WEB}modes/` },
    },
    {
      name: 'web-app-at-the-top',
      comment: 'app/ starts the app and picks the mode: nothing imports it.',
      severity: 'error',
      from: { path: WEB, pathNot: `${WEB}app/` },
      to: { path: `${WEB}app/` },
    },
    ...mapRules('web-feature-map', FEATURE, WEB_FEATURES),

    // ---- everywhere ----------------------------------------------------------------------------
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing package.',
      severity: 'error',
      from: {},
      // Vite's asset suffixes (?url, ?raw, ?worker) are resolved by the bundler.
      to: { couldNotResolve: true, pathNot: '\\?(url|raw|worker)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    // @marquee/core resolves through the workspace link to packages/core/src (its package.json `exports`).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
