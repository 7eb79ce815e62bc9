# syntax=docker/dockerfile:1
# One image for every Flatlay component; the container command picks the component:
#   node gateway/dist/main.js            gateway (HTTP 8080, serves web/dist)
#   node services/<name>/dist/main.js     identity | ledger | image | billing | analytics (gRPC)
#   node services/image/dist/worker.js    image worker (GPU node pool)
#   node apps/embedded/dist/embedded.js   everything in one process (`npm start`; not used by the chart)
# The Helm chart (charts/flatlay) sets the command per Deployment.
#
# Two ways to make the image (ADR 0304), by target:
#   runtime           (the last stage, the default; releases) installs from the lockfile and compiles
#                     everything inside the build
#   runtime-prebuilt  (`npm test`, scripts/infra/containers.mjs) packages the host's just-built dist/
#                     folders with production dependencies installed here from the same lockfile, so a
#                     test run does not compile the TypeScript twice; built with the context filter
#                     scripts/container/prebuilt.dockerignore, which keeps dist/.
# Without a registry, NODE_IMAGE and PYTHON_IMAGE are the local Debian + Node base that
# scripts/infra/containers.mjs makes (PYTHON_IMAGE only needs /bin/sh unless ENGINE_CUDA_LIBS=1).

ARG NODE_IMAGE=node:20-slim
ARG PYTHON_IMAGE=python:3.12-slim

# ---- cuda-libs: with --build-arg ENGINE_CUDA_LIBS=1, the CUDA execution provider and the CUDA,
# cuBLAS, cuDNN libraries it loads, from pinned PyPI wheels (scripts/cuda-libs.sh; about 2.3 GB more
# in the image; needs python3 with pip in PYTHON_IMAGE). Off by default: the folders stay empty and
# the workers run on CPU.
FROM ${PYTHON_IMAGE} AS cuda-libs
ARG ENGINE_CUDA_LIBS=0
COPY scripts/cuda-libs.sh scripts/cuda-libs.requirements.txt /cuda/
RUN mkdir -p /opt/cuda-libs/lib /opt/cuda-libs/providers \
 && if [ "$ENGINE_CUDA_LIBS" = "1" ]; then \
      /cuda/cuda-libs.sh download /tmp/wheels && /cuda/cuda-libs.sh unpack /tmp/wheels /opt/cuda-libs && rm -rf /tmp/wheels; \
    fi

# ---- manifests: the workspace's package files only, so the dependency layers below are cached
# until a manifest or the lockfile changes. `npm ci` trusts the CA bundle given as the build secret
# `npm_ca` when there is one (a registry reached through a TLS-inspecting proxy; the bundle is not
# kept in the image), and `npm ls` fails the step if an install came back incomplete (npm can exit 0
# after "Exit handler never called!").
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
# onnxruntime-node's install script downloads CUDA binaries; the GPU provider is supplied separately.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/platform/package.json services/platform/
COPY services/files/package.json services/files/
COPY services/identity/package.json services/identity/
COPY services/ledger/package.json services/ledger/
COPY services/image/package.json services/image/
COPY services/billing/package.json services/billing/
COPY services/analytics/package.json services/analytics/
COPY gateway/package.json gateway/
COPY apps/embedded/package.json apps/embedded/
COPY web/package.json web/

# ---- build (for `runtime`, the default target): install from the lockfile, generate/check proto, compile TypeScript,
# build the web app, keep production dependencies only
FROM manifests AS build
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi \
 && npm ci --no-audit --no-fund --loglevel=error \
 && npm ls --depth=0 >/dev/null
COPY . .
# `npm run build` (scripts/build.mjs) checks the install against the lockfile first and may run npm
# again (the CA secret for that; its copy of node_modules for later clones goes to /tmp, not a layer).
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi \
 && FLATLAY_CACHE=/tmp/flatlay-cache npm run build \
 && rm -rf /tmp/flatlay-cache \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error
# The segmentation model files (ISNet as shipped, and its float32 copy for CPU workers) are built
# here, because the runtime file system is read-only.
RUN ENGINE_MODEL_CACHE=/app/models node services/image/dist/engine/model/prepare.js
# The CUDA provider beside onnxruntime-node's core, checked against its libraries (only with ENGINE_CUDA_LIBS=1).
COPY --from=cuda-libs /opt/cuda-libs /opt/cuda-libs
RUN if [ -f /opt/cuda-libs/providers/libonnxruntime_providers_cuda.so ]; then scripts/cuda-libs.sh link /opt/cuda-libs /app/node_modules; fi

# ---- prebuilt-deps: production dependencies from the lockfile and the model files, the base of
# runtime-prebuilt. The model files depend only on the engine's model code and the lockfile's model
# package: their layer (about 350 MB) is made before the product's output is copied, and as every
# step here is a RUN or a small COPY, a warm build finds them all in the cache without hashing
# node_modules again (a `COPY --from` of it would: half a minute).
# `--prefer-offline`: `npm test` mounts the host's npm cache at /root/.npm for this step (the
# packages its own install has just fetched); without a mounted cache it downloads as before.
FROM manifests AS prebuilt-deps
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_ca; fi \
 && npm ci --prefer-offline --omit=dev --no-audit --no-fund --loglevel=error \
 && npm ls --omit=dev --depth=0 >/dev/null
COPY services/platform/dist services/platform/dist
COPY services/image/dist/engine services/image/dist/engine
RUN ENGINE_MODEL_CACHE=/app/models node services/image/dist/engine/model/prepare.js
COPY --from=cuda-libs /opt/cuda-libs /opt/cuda-libs
COPY scripts/cuda-libs.sh scripts/cuda-libs.requirements.txt scripts/
RUN if [ -f /opt/cuda-libs/providers/libonnxruntime_providers_cuda.so ]; then scripts/cuda-libs.sh link /opt/cuda-libs /app/node_modules; fi

# ---- runtime-prebuilt (`--target runtime-prebuilt`, `npm test`): the host's `npm run build` output
# on prebuilt-deps; the context is filtered by scripts/container/prebuilt.dockerignore (dist/ kept).
# The same files, users and settings as `runtime` below.
FROM prebuilt-deps AS runtime-prebuilt
ENV NODE_ENV=production ENGINE_MODEL_CACHE=/app/models LD_LIBRARY_PATH=/opt/cuda-libs/lib
COPY proto ./proto
COPY services ./services
COPY gateway ./gateway
COPY apps ./apps
COPY web/dist ./web/dist
USER 1000:1000
EXPOSE 8080 50051 50052 50053 50054 50055
CMD ["node", "gateway/dist/main.js"]

# ---- runtime: compiled output and production dependencies only, as a non-root user
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only to the process (the chart also mounts the root filesystem read-only;
# /tmp is an emptyDir there). The model files and the dependencies first: they change least.
COPY --from=build /app/models ./models
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/proto ./proto
COPY --from=build /app/services ./services
COPY --from=build /app/gateway ./gateway
COPY --from=build /app/apps ./apps
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/web/package.json ./web/package.json
ENV ENGINE_MODEL_CACHE=/app/models
# empty unless built with ENGINE_CUDA_LIBS=1; the NVIDIA container toolkit mounts the driver's libcuda.so.1
COPY --from=build /opt/cuda-libs/lib /opt/cuda-libs/lib
ENV LD_LIBRARY_PATH=/opt/cuda-libs/lib
# uid/gid 1000 is the `node` user of the official image (and of the local base); numeric so
# runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080 50051 50052 50053 50054 50055
CMD ["node", "gateway/dist/main.js"]
