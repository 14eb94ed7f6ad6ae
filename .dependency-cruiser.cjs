// The module map, as rules that CI checks (`npm run lint:deps`; docs/architecture.md draws the same map).
// An arrow is "imports", type-only imports included: a type import couples two modules too.
// Edges that broke a rule when the rules were written are listed in
// .dependency-cruiser-known-violations.json and tolerated until they are removed; any other
// forbidden edge or new cycle fails the check. To regenerate the list after removing some
// (never to hide a new one): `npm run lint:deps:baseline`.

const SERVER = '^apps/server/src/';
const MODULE = `${SERVER}modules/`;
const WEB = '^apps/web/src/';
const TEST_FILE = '\\.test\\.tsx?$';

module.exports = {
  forbidden: [
    // ---- packages ------------------------------------------------------------------------------
    {
      name: 'core-imports-nothing-of-ours',
      comment: 'packages/core is pure and shared by the server and the web: it imports neither of them (nor e2e, bench).',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(apps|e2e|bench|scripts)/' },
    },
    {
      name: 'core-no-io',
      comment: "packages/core has no I/O: no Node built-ins (node:fs, node:crypto, ...).",
      severity: 'error',
      from: { path: '^packages/core/', pathNot: TEST_FILE },
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
        "A module's routes.ts is its HTTP edge, registered by app.ts only: what another module needs lives in the owning module's service or another of its files.",
      severity: 'error',
      from: { path: `${MODULE}([^/]+)/` },
      to: { path: `${MODULE}[^/]+/(routes|[^/]*-routes)\\.ts$`, pathNot: `${MODULE}$1/` },
    },
    {
      name: 'no-module-cycle',
      comment:
        'Server modules (apps/server/src/modules/<name>) form no cycle: imports go down the map; a module that must make another act enqueues a job that the other registers.',
      severity: 'error',
      scope: 'folder',
      from: { path: `${MODULE}[^/]+$` },
      to: { path: `${MODULE}[^/]+$`, circular: true },
    },
    {
      name: 'attendee-path-goes-down',
      comment:
        "The attendee's path: public-site -> checkout -> orders -> events, discounts; payments and fulfilment follow orders. Nothing reaches back up.",
      severity: 'error',
      from: { path: `${MODULE}orders/` },
      to: { path: `${MODULE}(checkout|public-site|payments|fulfilment|event-pages)/` },
    },
    {
      name: 'checkout-below-public-site',
      severity: 'error',
      from: { path: `${MODULE}checkout/` },
      to: { path: `${MODULE}(public-site|event-pages)/` },
    },
    {
      name: 'src-imports-no-test',
      comment: 'Test helpers live under apps/server/test/; code under src/ (tests beside it excepted) never imports them.',
      severity: 'error',
      from: { path: SERVER, pathNot: TEST_FILE },
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
      comment: 'A mode mounts features; a feature never imports a mode (nor app/).',
      severity: 'error',
      from: { path: `${WEB}features/` },
      to: { path: `${WEB}(app|modes)/` },
    },
    {
      name: 'web-app-at-the-top',
      comment: 'app/ starts the app and picks the mode: nothing imports it.',
      severity: 'error',
      from: { path: WEB, pathNot: `${WEB}app/` },
      to: { path: `${WEB}app/` },
    },
    {
      name: 'web-feature-through-its-index',
      comment:
        "A feature imports another feature only through that feature's index.ts (the components and hooks it offers others, such as a panel on an event page), never its inner files.",
      severity: 'error',
      from: { path: `${WEB}features/([^/]+)/` },
      to: { path: `${WEB}features/[^/]+/`, pathNot: [`${WEB}features/$1/`, `${WEB}features/[^/]+/index\\.tsx?$`] },
    },
    {
      name: 'web-no-feature-cycle',
      comment: 'Features form no cycle (six pairs imported each other when the rule was written).',
      severity: 'error',
      scope: 'folder',
      from: { path: `${WEB}features/[^/]+$` },
      to: { path: `${WEB}features/[^/]+$`, circular: true },
    },

    // ---- everywhere ----------------------------------------------------------------------------
    {
      name: 'not-to-unresolvable',
      comment: 'An import that does not resolve is a typo or a missing package.',
      severity: 'error',
      from: {},
      // Vite's asset suffixes (?url, ?raw) are resolved by the bundler.
      to: { couldNotResolve: true, pathNot: '\\?(url|raw|worker)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: they tie two modules together as much as value imports do.
    tsPreCompilationDeps: true,
    // @marquee/core resolves through the workspace link to packages/core/src (its package.json `exports`).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
