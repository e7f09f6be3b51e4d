# docaudit platform-auth (port 3000): API-key exchange (/core/api-key/token), organisation administration (/core/...), JWKS.
# It also bootstraps the first organisation and prints its admin API key once (see the logs).
#
# The build context is the repository root (BuildKit reads docker/platform-auth.Dockerfile.dockerignore):
#   docker build -f docker/platform-auth.Dockerfile -t docaudit/platform-auth .
# Needs DATABASE_URL and AUTH_SECRET, and REDIS_URL for BullMQ jobs: see docker/compose.yaml.
# The build stages are the same in every docker/*.Dockerfile, so BuildKit builds them once.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies (the SWC compiler is a devDependency), then dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# No dependency's install script is needed: native parts (SWC, msgpackr-extract) come as
# prebuilt optional packages, and the slim image has no compiler anyway.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY .swcrc tsconfig.base.json tsconfig.json ./
COPY apps ./apps
COPY libs ./libs
COPY tools ./tools
RUN npm run build

# ---- deps: production dependencies only ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PLATFORM_AUTH_PORT=3000 \
    DATA_DIR=/data
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR is used only without DATABASE_URL (embedded PGlite and its generated secret). It belongs
# to the unprivileged user; the code stays root-owned, read-only for it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# No curl in slim images: Node's fetch. Liveness only; readiness (database, Redis) is GET /health/ready.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PLATFORM_AUTH_PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: the app stops taking work and closes within SHUTDOWN_TIMEOUT_MS (10 s by default).
STOPSIGNAL SIGTERM
CMD ["node", "dist/apps/platform-auth/src/main.js"]
