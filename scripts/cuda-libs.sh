#!/usr/bin/env bash
# Puts the CUDA execution provider's libraries where onnxruntime-node finds them, from pinned
# registry packages (scripts/cuda-libs.requirements.txt: PyPI wheels with their sha256), for a GPU
# host that has no internet (onnxruntime-node's own installer downloads them from NuGet at `npm
# install`, which the project skips: ONNXRUNTIME_NODE_INSTALL=skip).
#
#   scripts/cuda-libs.sh download WHEELS      on a machine that reaches PyPI (or PIP_INDEX_URL's mirror):
#                                             the pinned wheels into WHEELS, hashes checked by pip
#   scripts/cuda-libs.sh unpack WHEELS OUT    offline: OUT/lib gets the CUDA, cuBLAS, cuDNN, cuFFT, cuRAND
#                                             and NVRTC libraries, OUT/providers ONNX Runtime's CUDA provider
#   scripts/cuda-libs.sh link OUT [NODE_MODULES]
#                                             offline: copies OUT/providers beside onnxruntime-node's core
#                                             (it loads its providers from its own folder), checks that every
#                                             library the provider needs resolves from OUT/lib, and prints the
#                                             LD_LIBRARY_PATH to start the worker with
#   scripts/cuda-libs.sh all WHEELS OUT [NODE_MODULES]   the three in turn
#
# The host needs only the NVIDIA driver (libcuda.so.1, mounted by the NVIDIA container toolkit in a
# container), recent enough for CUDA 13 (driver 580 or later). Then ENGINE_CUDA=1, or leave it unset:
# the engine takes CUDA when the provider starts, and falls back to CPU with one warning in the log
# when it does not. `npm run bench:engine -- DATASET --cuda` measures it there.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
requirements="$here/cuda-libs.requirements.txt"
ort_version="$(sed -n 's/^onnxruntime-gpu==\([^ ]*\) .*/\1/p' "$requirements")"

die() {
  echo "cuda-libs: $*" >&2
  exit 1
}

download() {
  local wheels="$1"
  mkdir -p "$wheels"
  # one platform's wheels whatever machine downloads them: CPython 3.11, manylinux x86_64
  python3 -m pip download --no-deps --require-hashes --only-binary=:all: \
    --implementation cp --python-version 3.11 --abi cp311 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux_2_12_x86_64 --platform manylinux_2_5_x86_64 \
    -d "$wheels" -r "$requirements"
}

# extract WHEEL REGEX DEST: the members whose path matches REGEX, flat into DEST
extract() {
  python3 - "$@" <<'PY'
import os, re, sys, zipfile
wheel, pattern, dest = sys.argv[1], re.compile(sys.argv[2]), sys.argv[3]
os.makedirs(dest, exist_ok=True)
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if pattern.search(name):
            target = os.path.join(dest, os.path.basename(name))
            with z.open(name) as src, open(target, "wb") as out:
                out.write(src.read())
            os.chmod(target, 0o755)
PY
}

unpack() {
  local wheels="$1" out="$2" found=0
  command -v python3 >/dev/null || die "python3 is needed to unpack the wheels"
  mkdir -p "$out/lib" "$out/providers"
  for wheel in "$wheels"/*.whl; do
    [ -e "$wheel" ] || die "no wheels in $wheels (run: $0 download $wheels)"
    found=$((found + 1))
    case "$(basename "$wheel")" in
      onnxruntime_gpu-*)
        [[ "$(basename "$wheel")" == onnxruntime_gpu-"$ort_version"-* ]] || die "$(basename "$wheel") is not onnxruntime-gpu $ort_version"
        extract "$wheel" '^onnxruntime/capi/libonnxruntime_providers_(shared|cuda)\.so$' "$out/providers"
        ;;
      nvidia_*) extract "$wheel" '^nvidia/.*/lib/[^/]+\.so(\.[0-9]+)*$' "$out/lib" ;;
      *) die "unexpected wheel $(basename "$wheel")" ;;
    esac
  done
  [ "$found" -eq "$(grep -c -- '--hash=' "$requirements")" ] || die "$wheels holds $found wheels, not the pinned set"
  [ -f "$out/providers/libonnxruntime_providers_cuda.so" ] || die "no CUDA provider in the onnxruntime-gpu wheel"
  echo "cuda-libs: $(ls "$out/lib" | wc -l) libraries in $out/lib, the provider in $out/providers"
}

link() {
  local out="$1" node_modules="${2:-$here/../node_modules}"
  local pkg="$node_modules/onnxruntime-node"
  [ -f "$pkg/package.json" ] || die "no onnxruntime-node in $node_modules"
  local node_version
  node_version="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$pkg/package.json" | head -n 1)"
  [ "$node_version" = "$ort_version" ] ||
    die "onnxruntime-node is $node_version but the pinned provider is $ort_version: pin onnxruntime-gpu==$node_version (see $requirements)"
  local core
  core="$(find "$pkg/bin" -path '*linux/x64/libonnxruntime.so.1' | head -n 1)"
  [ -n "$core" ] || die "no linux x64 core in $pkg/bin"
  # every library the provider needs, besides the driver's own libcuda.so.1, must resolve from OUT/lib
  local missing
  missing="$(LD_LIBRARY_PATH="$out/lib" ldd "$out/providers/libonnxruntime_providers_cuda.so" | awk '/not found/ {print $1}' | grep -v '^libcuda\.so\.1$' || true)"
  [ -z "$missing" ] || die "not found in $out/lib: $missing"
  for soname in libcudnn.so.9 libcufft.so.12 libnvrtc.so.13; do
    [ -e "$out/lib/$soname" ] || die "$soname (loaded at run time) is missing from $out/lib"
  done
  cp "$out"/providers/libonnxruntime_providers_*.so "$(dirname "$core")/"
  if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
    echo "cuda-libs: note: no libcuda.so.1 on this host yet (the NVIDIA driver provides it)" >&2
  fi
  echo "cuda-libs: the provider is beside $core; start the worker with"
  echo "export LD_LIBRARY_PATH=$(cd "$out/lib" && pwd)\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
}

case "${1:-}" in
  download) [ $# -eq 2 ] || die "usage: $0 download WHEELS"; download "$2" ;;
  unpack) [ $# -eq 3 ] || die "usage: $0 unpack WHEELS OUT"; unpack "$2" "$3" ;;
  link) [ $# -ge 2 ] || die "usage: $0 link OUT [NODE_MODULES]"; link "$2" "${3:-}" ;;
  all)
    [ $# -ge 3 ] || die "usage: $0 all WHEELS OUT [NODE_MODULES]"
    download "$2"
    unpack "$2" "$3"
    link "$3" "${4:-}"
    ;;
  *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
