# One production image for both processes:
#   web:     docker run IMAGE                    (node server.js)
#   worker:  docker run IMAGE node build/worker.js
#   migrate: docker run IMAGE node build/migrate.js
# BASE: the official Node 20 image on Debian bookworm. Where no image registry is reachable,
# scripts/docker-base.sh makes a stand-in from Debian's packages (docker build --build-arg BASE=...).
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Fixes to installed packages (patch-package, applied by npm ci's postinstall): docs/decisions/027.
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM ${BASE} AS runtime
# Chromium renders PDF exports in the worker.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-noto-core fonts-noto-cjk ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production PORT=3000 STORAGE_DIR=/data/storage CHROMIUM_PATH=/usr/bin/chromium
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/public ./public
COPY --from=build /app/locales ./locales
COPY --from=build /app/server.js /app/package.json ./
RUN mkdir -p /data/storage && chown -R node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthcheck').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "server.js"]
