# Marquee's container image (issue 26; README "Container"). Built from the same commands CI runs
# (.ci/run: npm ci, then the builds `npm start` would make), then pruned to what the server needs.
# `node scripts/check-dockerfile.mjs` runs this file's build steps in a clean copy of the repository
# and starts the result, since the machine this was written on cannot pull images.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: install everything, build the web app (client and server renderer) and compile the server
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
# The manifests first: the npm ci layer is reused until a dependency changes.
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
RUN node apps/server/scripts/build.mjs
# Only what runs: the dev tools (Vite, TypeScript, Playwright, Vitest, esbuild) leave.
RUN npm prune --omit=dev --no-audit --no-fund

# ---- runtime: the compiled server, the built web app, production packages; not root
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# The application stays owned by root (read-only to the server); only DATA_DIR is writable.
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# 200 when the database answers and its migrations are at head (docs/operations.md).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The server applies pending migrations on start and seeds an empty database (platform admin, demo tenant).
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
