# Loadplane service image: Node 20 for npm (which installs Bun as a dev dependency, as on every machine), then `npm start`.
FROM node:20-bookworm-slim

WORKDIR /app

# bubblewrap: the agents' tool sandbox (docs/security.md, "Run isolation"); without it the local agent offers no tool.
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*

# Dependencies first, so the layer is reused while only sources change. Bun is a dev dependency, so the
# install keeps dev dependencies (NODE_ENV is set to production only afterwards).
COPY package.json package-lock.json ./
# The npm workspaces (example plugins, installable by package name; the admin UI's package) must be there for `npm ci`
# to link them.
COPY examples/ ./examples/
COPY ui/package.json ./ui/
COPY packages/plugin-kit/package.json ./packages/plugin-kit/
RUN npm ci --no-audit --no-fund && npm cache clean --force

COPY . .
# Bundles the admin UI into ui/dist with its source hash (npm ci's postinstall ran before the sources were here), so the
# container's start finds it current and builds nothing.
RUN node_modules/.bin/bun ui/build.ts
# The plugin kit's dist/, which the example plugin and every plugin `loadplane plugin install` puts in /data/plugins import.
RUN node_modules/.bin/bun packages/plugin-kit/build.ts
# The embedded database's prepared cluster (npm ci's postinstall ran before the sources were here): a container started
# without DATABASE_URL loads it instead of running initdb and every migration (docs/benchmarks.md, "Cold start").
RUN node_modules/.bin/bun scripts/prepare-database-template.ts

# Load engines for the in-process agent: none by default (the image stays small and the agent offers `custom`);
# `docker compose build --build-arg ENGINES=all` (or a list: "k6 locust") installs them for the user `node` with
# scripts/install-engines, adding a JDK and Maven (JMeter, Gatling), Python (Locust) and, while building k6 only, Go.
ARG ENGINES=""
RUN bash scripts/container-engines.sh --slim "$ENGINES" node

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data

# /agent-token: compose's shared volume, where the service keeps the agent's token (AGENT_TOKEN_FILE); a named volume
# takes this owner and mode from the image.
RUN mkdir -p /data && chown node:node /data && install -d -o node -g node -m 700 /agent-token
USER node
VOLUME ["/data"]
EXPOSE 8080

HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=6 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Bun itself, not `npm start`: npm between the init and the service would not pass SIGTERM on, and the service would
# not shut down gracefully (it drains streams and agent sockets and exits 0 on SIGTERM). Compose adds an init (`init:
# true`) to reap the tools' orphaned processes.
CMD ["node_modules/.bin/bun", "adapters/runtime/bun/main.ts"]
