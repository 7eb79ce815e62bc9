# syntax=docker/dockerfile:1
# One image for every Flatlay component; the container command picks the component:
#   node gateway/dist/main.js            gateway (HTTP 8080, serves web/dist)
#   node services/<name>/dist/main.js     identity | ledger | image | billing | analytics (gRPC)
#   node services/image/dist/worker.js    image worker (GPU node pool)
#   node apps/embedded/dist/embedded.js   everything in one process (`npm start`; not used by the chart)
# The Helm chart (charts/flatlay) sets the command per Deployment.

ARG NODE_IMAGE=node:20-slim
ARG PYTHON_IMAGE=python:3.12-slim

# ---- cuda-libs: with --build-arg ENGINE_CUDA_LIBS=1, the CUDA execution provider and the CUDA,
# cuBLAS, cuDNN libraries it loads, from pinned PyPI wheels (scripts/cuda-libs.sh; about 2.3 GB more
# in the image). Off by default: the folders stay empty and the workers run on CPU.
FROM ${PYTHON_IMAGE} AS cuda-libs
ARG ENGINE_CUDA_LIBS=0
COPY scripts/cuda-libs.sh scripts/cuda-libs.requirements.txt /cuda/
RUN mkdir -p /opt/cuda-libs/lib /opt/cuda-libs/providers \
 && if [ "$ENGINE_CUDA_LIBS" = "1" ]; then \
      /cuda/cuda-libs.sh download /tmp/wheels && /cuda/cuda-libs.sh unpack /tmp/wheels /opt/cuda-libs && rm -rf /tmp/wheels; \
    fi

# ---- build: install from the lockfile, generate/check proto, compile TypeScript, build the web app
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# onnxruntime-node's install script downloads CUDA binaries; the GPU provider is supplied separately.
ENV ONNXRUNTIME_NODE_INSTALL=skip
# Manifests first, so the dependency layer is cached until a manifest or the lockfile changes.
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
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error
# The segmentation model files (ISNet as shipped, and its float32 copy for CPU workers) are built
# here, because the runtime file system is read-only.
RUN ENGINE_MODEL_CACHE=/app/models node services/image/dist/engine/model/prepare.js
# The CUDA provider beside onnxruntime-node's core, checked against its libraries (only with ENGINE_CUDA_LIBS=1).
COPY --from=cuda-libs /opt/cuda-libs /opt/cuda-libs
RUN if [ -f /opt/cuda-libs/providers/libonnxruntime_providers_cuda.so ]; then scripts/cuda-libs.sh link /opt/cuda-libs /app/node_modules; fi

# ---- runtime: compiled output and production dependencies only, as a non-root user
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Owned by root and read-only to the process (the chart also mounts the root filesystem read-only;
# /tmp is an emptyDir there).
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/proto ./proto
COPY --from=build /app/services ./services
COPY --from=build /app/gateway ./gateway
COPY --from=build /app/apps ./apps
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/web/package.json ./web/package.json
COPY --from=build /app/models ./models
ENV ENGINE_MODEL_CACHE=/app/models
# empty unless built with ENGINE_CUDA_LIBS=1; the NVIDIA container toolkit mounts the driver's libcuda.so.1
COPY --from=build /opt/cuda-libs/lib /opt/cuda-libs/lib
ENV LD_LIBRARY_PATH=/opt/cuda-libs/lib
# uid/gid 1000 is the `node` user of the official image; numeric so runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080 50051 50052 50053 50054 50055
CMD ["node", "gateway/dist/main.js"]
