# syntax=docker/dockerfile:1
#
# One image for all of svc's processes:
#   node dist/api/main.js      the HTTP API (default command, port 3000)
#   node dist/worker/main.js   the Temporal worker
#   node dist/db/migrate.js    applies the database migrations, then exits
# They read DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, PORT and the SVC_* settings.

# --- build: compile TypeScript, then drop the dev dependencies ---------------------------------
FROM node:24.22.3-bookworm-slim AS build
WORKDIR /app

# Dependencies first, so that this layer is rebuilt only when the lock file changes.
COPY package.json package-lock.json ./
# npm install from the lock file: it lists only the platform binaries our registry mirror serves, which
# `npm ci` would refuse as out of sync.
RUN npm install --no-audit --no-fund

COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund
# The console's static files (docs/console.md), which the API serves under /console/.
RUN npm --prefix console install --no-audit --no-fund \
 && npm --prefix console run build

# --- runtime ------------------------------------------------------------------------------------
FROM node:24.22.3-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app

COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist

# The official image's unprivileged user.
USER node
EXPOSE 3000
CMD ["node", "dist/api/main.js"]
