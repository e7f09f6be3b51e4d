# docaudit standalone (ports 3000-3003): platform-auth, audit, retrieval and workers in one process.
# Without DATABASE_URL it runs PostgreSQL embedded (PGlite) in the /data volume, with its generated secret.
#
# The build context is the repository root (BuildKit reads docker/standalone.Dockerfile.dockerignore):
#   docker build -f docker/standalone.Dockerfile -t docaudit/standalone .
#   docker run -p 3000-3002:3000-3002 -v docaudit-data:/data docaudit/standalone   # admin key: in the first start's output
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
    PLATFORM_AUTH_PORT=3000 AUDIT_PORT=3001 RETRIEVAL_PORT=3002 WORKERS_HEALTH_PORT=3003 \
    DATA_DIR=/data
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The demo repository (Markdown, read at the first start; the build compiles code only).
COPY --from=build /app/libs/composition/demo ./libs/composition/demo
# DATA_DIR is used only without DATABASE_URL (embedded PGlite and its generated secret). It belongs
# to the unprivileged user; the code stays root-owned, read-only for it.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 3001 3002 3003
VOLUME ["/data"]
# No curl in slim images: Node's fetch, on the four apps of the process.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const e=process.env;Promise.all([e.PLATFORM_AUTH_PORT||3000,e.AUDIT_PORT||3001,e.RETRIEVAL_PORT||3002,e.WORKERS_HEALTH_PORT||3003].map(p=>fetch('http://127.0.0.1:'+p+'/health/live').then(r=>{if(!r.ok)throw r.status}))).then(()=>process.exit(0),()=>process.exit(1))"]
# SIGTERM: the apps stop taking work, then the embedded database closes (SHUTDOWN_TIMEOUT_MS, 10 s by default).
STOPSIGNAL SIGTERM
CMD ["node", "dist/apps/standalone/src/main.js"]
