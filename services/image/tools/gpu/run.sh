#!/bin/bash
# On the lent GPU machine (pack.sh beside this file made the parts), from the repository's root:
# assembles the carried parts in /tmp/g, installs the CUDA provider beside onnxruntime-node, then
#   run.sh bench   bench:engine --cuda at the engine's size, at 1024, and with crop-first
#   run.sh eval    the eval's held-out draws 4-6 (synthetic scenes, no peer) at the engine's size and at 1024
#   run.sh unpack  only the set-up, for commands of one's own after it (the tools are in /tmp/g/app)
# Reports land in $OUT.
set -u
mode="${1:-bench}"
small="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/small"
G=/tmp/g; cd $G
unxz() { xz -d -T0 -c "$1" 2>/dev/null || python3 -c "import lzma,shutil,sys;shutil.copyfileobj(lzma.open(sys.argv[1]),sys.stdout.buffer)" "$1"; }
t0=$(date +%s)
cat part.* | tar -xf - && rm -f part.*
unxz stage.tar.xz | tar -xf - && unxz provider.so.xz > provider.so || exit 1
echo "unpacked in $(( $(date +%s) - t0 )) s"
ORT=$G/app/node_modules/onnxruntime-node/bin/napi-v6/linux/x64
cp provider.so $ORT/libonnxruntime_providers_cuda.so && cp libonnxruntime_providers_shared.so $ORT/
V=/opt/torch/.venv/lib/python3.12/site-packages/nvidia
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/lib64:/usr/local/cuda/lib64:$(ls -d $V/*/lib 2>/dev/null | tr '\n' ':')
echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
ldd $ORT/libonnxruntime_providers_cuda.so | grep -E "not found|cublas|cudart|curand"
ldconfig -p | grep -E "libcudnn\.so|libcufft\.so|libnvrtc\.so" | head -5
ls $V 2>/dev/null | tr '\n' ' '; echo
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
nproc; free -g | head -2
cp -r "$small"/. $G/app/
cd $G/app
export MODEL_PATH=$(ls $G/app/model/isnet-*-fp16-w3.onnx) ENGINE_MODEL_CACHE=$G/mc ENGINE_CUDA=1
[ "$mode" = unpack ] && exit 0
if [ "$mode" = eval ]; then
  # both sizes at once: the GPU and the 16 cores hold two engines
  for size in 576 1024; do
    ENGINE_INFERENCE_SIZE=$size timeout 400 ../node eval.mjs ds --sets=synthetic --no-peer --held-out=4,5,6 >$OUT/eval-$size.txt 2>&1 &
  done
  sleep 20; nvidia-smi --query-compute-apps=pid,used_memory --format=csv
  wait
  for size in 576 1024; do echo "== eval at $size"; grep -E '^\| ' $OUT/eval-$size.txt; done
  exit 0
fi
RUNS=${RUNS:-7} timeout 200 ../node bench.mjs ds --cuda 2>&1 | tee $OUT/bench-engine-size.txt
ENGINE_INFERENCE_SIZE=1024 RUNS=${RUNS:-7} timeout 200 ../node bench.mjs ds --cuda 2>&1 | tee $OUT/bench-1024.txt
ENGINE_CROP_FIRST=1 SIZES=12 RUNS=${RUNS:-7} timeout 150 ../node bench.mjs ds --cuda 2>&1 | tee $OUT/bench-crop-first.txt
nvidia-smi --query-gpu=memory.used --format=csv
