# syntax=docker/dockerfile:1
# The service as an image: built and pruned to production dependencies in one stage, run as
# an unprivileged user in a slim one. `docker build -t tutoring-marketplace .`

ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
# The pnpm of package.json's packageManager field (corepack is not in every Node image to come).
RUN npm install --global pnpm@10.34.9
# Manifests first, so a change of code reuses the installed dependencies.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/domain/package.json packages/domain/
COPY packages/adapters/package.json packages/adapters/
COPY packages/testkit/package.json packages/testkit/
COPY packages/http/package.json packages/http/
COPY packages/cli/package.json packages/cli/
COPY packages/client/package.json packages/client/
RUN pnpm install --frozen-lockfile
COPY . .
# Each deploy is one package with its production dependencies (workspace packages copied with
# their dist/), standalone under /out.
RUN pnpm build \
 && pnpm --filter @tutoring/http deploy --legacy --prod /out/http \
 && pnpm --filter @tutoring/cli deploy --legacy --prod /out/cli

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /out/http ./http
COPY --from=build --chown=root:root /out/cli ./cli
# The code stays root's and read-only to the service; only DATA_DIR is the service's. A fresh
# named volume mounted on /data or /data/storage takes these owners.
RUN ln -s /app/cli/bin/tutoring.mjs /usr/local/bin/tutoring \
 && mkdir -p /data/storage \
 && chown -R node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "http/dist/main.js"]
