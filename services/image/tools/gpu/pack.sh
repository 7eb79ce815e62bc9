#!/usr/bin/env bash
# Packs what `npm run bench:engine -- --cuda` and `npm run eval` need for a lent GPU machine that
# reaches nothing outside and takes at most 64 MiB of files per call (the device tool,
# docs/benchmarks.md "GPU"): Node, onnxruntime-node and sharp for Linux x64, the float16 model and
# the CUDA provider of the pinned onnxruntime-gpu wheel (scripts/cuda-libs.requirements.txt), in
# compressed parts; and, uncompressed in the last folder, the bench and the eval each bundled into
# one file and the dataset. The machine already has the driver, CUDA 13 and cuDNN 9.
#
#   services/image/tools/gpu/pack.sh DATASET    writes .gpu0 .. .gpuN (git-ignored through
#                                               .git/info/exclude), each under 56 MB
#
# Then one device call per folder, in order, carrying it: `mkdir -p /tmp/g && cp .gpuK/part.* /tmp/g/`,
# and with the last folder `bash .gpuN/run.sh bench` (or `eval`, which runs the held-out draws
# 4-6 at the engine's size and at 1024).
#
# The provider is 272 MB, 210 MB of it GPU code for seven chip generations. For the transfer only,
# the code for chips other than the H100's (sm_90) is zeroed, so it compresses to 50 MB: the CUDA
# runtime loads the sm_90 code, which is byte for byte the wheel's. Never install that copy
# anywhere else; scripts/cuda-libs.sh installs the whole provider.
set -euo pipefail
dataset="${1:?usage: $0 DATASET}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
grep -qx '/.gpu\*/' .git/info/exclude 2>/dev/null || echo '/.gpu*/' >>.git/info/exclude
grep -E '^onnxruntime-gpu==' scripts/cuda-libs.requirements.txt >"$work/ort.txt"
python3 -m pip download -q --no-deps --require-hashes --only-binary=:all: --implementation cp --python-version 3.11 \
  --abi cp311 --platform manylinux_2_28_x86_64 -d "$work/wheels" -r "$work/ort.txt"
unzip -q -j "$work"/wheels/*.whl 'onnxruntime/capi/libonnxruntime_providers_cuda.so' \
  'onnxruntime/capi/libonnxruntime_providers_shared.so' -d "$work/prov"
python3 - "$work/prov/libonnxruntime_providers_cuda.so" <<'PY'
import struct, sys
path = sys.argv[1]
f = bytearray(open(path, 'rb').read())
shoff = struct.unpack_from('<Q', f, 0x28)[0]
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', f, 0x3A)
secs = [struct.unpack_from('<IIQQQQIIQQ', f, shoff + i * shentsize) for i in range(shnum)]
names = secs[shstrndx][4]
off, size = next((s[4], s[5]) for s in secs if f[names + s[0]:names + s[0] + 11] == b'.nv_fatbin\0')
p, end = off, off + size
while p < end:
    magic, _, hs, fs = struct.unpack_from('<IHHQ', f, p)
    if magic != 0xBA55ED50:
        p += 8
        continue
    q = p + hs
    while q < p + hs + fs:
        _, _, ehs, psz = struct.unpack_from('<HHIQ', f, q)
        if struct.unpack_from('<I', f, q + 28)[0] != 90:
            f[q + ehs:q + ehs + psz] = bytes(psz)
        q += ehs + psz
    p += hs + fs
open(path, 'wb').write(f)
PY
app="$work/stage/app"
small="$work/small"
mkdir -p "$app/model" "$small/ds"
for tool in bench-engine eval/run-eval; do
  node_modules/.bin/esbuild "services/image/tools/$tool.ts" --bundle --platform=node --format=esm --target=node20 \
    --conditions=source --external:onnxruntime-node --external:sharp --log-level=warning \
    --banner:js="import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" \
    --outfile="$small/$(basename "$tool").mjs"
done
# launchers, so that a bundled command line (tools/enhance.ts) does not take the tool's arguments as its own
echo "await import('./bench-engine.mjs');" >"$small/bench.mjs"
echo "await import('./run-eval.mjs');" >"$small/eval.mjs"
cp -r "$dataset/clean" "$dataset/backgrounds" "$dataset/casual" "$small/ds/"
ort="$(node -p "require('./node_modules/onnxruntime-node/package.json').version")"
sharp="$(node -p "require('./node_modules/sharp/package.json').version")"
echo "{\"private\":true,\"type\":\"module\",\"dependencies\":{\"onnxruntime-node\":\"$ort\",\"sharp\":\"$sharp\"}}" >"$app/package.json"
(cd "$app" && ONNXRUNTIME_NODE_INSTALL=skip npm install -s --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline)
b="$app/node_modules/onnxruntime-node/bin/napi-v6"
rm -rf "$b/darwin" "$b/win32" "$b/linux/arm64" "$app"/node_modules/@img/*arm* "$app"/node_modules/@img/*musl*
cp .cache/models/isnet-*-fp16-w3.onnx .cache/models/isnet-*-fp16-w3.json "$app/model/" ||
  { echo "no float16 model in .cache/models: run npm run bench:engine once" >&2; exit 1; }
cp "$(command -v node)" "$work/stage/node"
cp "$work/prov/libonnxruntime_providers_shared.so" "$work/stage/"
mkdir -p "$work/pack"
xz -T0 -6 -c "$work/prov/libonnxruntime_providers_cuda.so" >"$work/pack/provider.so.xz"
tar -C "$work/stage" -cf - node app libonnxruntime_providers_shared.so | xz -T0 -6 >"$work/pack/stage.tar.xz"
tar -C "$work/pack" -cf - provider.so.xz stage.tar.xz | split -b 54M -d - "$work/part."
rm -rf .gpu[0-9]*
i=0
for part in "$work"/part.*; do
  mkdir -p ".gpu$i" && mv "$part" ".gpu$i/"
  last=".gpu$i"
  i=$((i + 1))
done
cp services/image/tools/gpu/run.sh "$last/run.sh"
cp -r "$small" "$last/small"
echo "packed: $(ls -d .gpu[0-9]* | tr '\n' ' ')(run.sh, the tools and the dataset in $last)"
