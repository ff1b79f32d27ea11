# Loadplane agent image (compose's `agent` service): `loadplane agent` as the single executable (scripts/build-binaries.sh),
# bubblewrap for its tool sandbox, and the load engines, all of them unless the build arg ENGINES names fewer.
# docker build -f agent.Dockerfile -t loadplane-agent . ; docker build -f agent.Dockerfile --build-arg ENGINES="k6" ...

# The executable: built with the project's own Bun (an npm dev dependency) for this image's architecture.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY examples/ ./examples/
# The UI's package is an npm workspace too: `npm ci` needs its package.json (the agent never builds it).
COPY ui/package.json ./ui/
COPY packages/plugin-kit/package.json ./packages/plugin-kit/
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
RUN case "$(dpkg --print-architecture)" in amd64) target=x64 ;; arm64) target=arm64 ;; \
      *) echo "no single executable for $(dpkg --print-architecture)" >&2; exit 1 ;; esac \
 && DIST_DIR=/out bash scripts/build-binaries.sh "$target" && mv "/out/loadplane-linux-$target" /out/loadplane

# Node stays: Artillery is an npm package, and the engines' scripts use npm. Nothing of the checkout but the engine
# scripts (and the k6 output extension they build into k6) comes along.
FROM node:20-bookworm-slim

# bubblewrap: the tool sandbox (docs/compose.md, "What a script can reach"); without it the agent offers only `http`.
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/loadplane
COPY scripts/ ./scripts/
COPY plugins/load-tool-k6/xk6-output/ ./plugins/load-tool-k6/xk6-output/
COPY plugins/load-tool-k6/xk6-tool/ ./plugins/load-tool-k6/xk6-tool/
# Engines for the user `node`, under /home/node/.cache/loadplane: every one by default ("all"), or a list ("k6 locust"),
# or none (""; the agent still offers `http`). scripts/container-engines.sh adds what they need from Debian.
ARG ENGINES=all
RUN bash scripts/container-engines.sh --slim "$ENGINES" node

COPY --from=build /out/loadplane /usr/local/bin/loadplane

# The machine key (AGENT_STATE_DIR) on a volume, so a re-created container stays the same machine; /agent-token is where
# compose mounts the token the service writes (AGENT_TOKEN_FILE). Both the agent's alone.
RUN install -d -o node -g node -m 700 /agent-state /agent-token
ENV AGENT_STATE_DIR=/agent-state
VOLUME ["/agent-state"]
# Unprivileged: bubblewrap then isolates each tool in a user namespace of its own, without any capability of the container.
USER node
WORKDIR /home/node

HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["loadplane", "agent", "--health"]

# The executable itself, no shell or npm in between: SIGTERM reaches the agent, which stops its runs and exits 0.
ENTRYPOINT ["loadplane"]
CMD ["agent"]
