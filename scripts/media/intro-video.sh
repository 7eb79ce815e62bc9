#!/usr/bin/env bash
# Makes the first visit's intro video (web/public/intro/intro.webm) and its poster from the
# product's own showcase pairs (web/showcase, CC0): each casual photo cross-fades into its
# studio flat-lay. Needs ffmpeg (Debian: apt-get install ffmpeg); the outputs are committed, so
# neither the build nor the tests run this. Run again after changing the showcase.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
src=web/showcase
out=web/public/intro
mkdir -p "$out"
pairs=(01 04 07 10)
size=540     # square frame, white around each photo (the flat-lays' own background)
hold=1.4     # seconds each picture stays before the next fade starts
fade=0.6     # seconds of each cross-fade
inputs=()
filters=""
n=0
for p in "${pairs[@]}"; do
  for side in before after; do
    inputs+=(-loop 1 -t "$(echo "$hold + $fade" | bc)" -i "$src/$p-$side.webp")
    filters+="[$n:v]scale=${size}:${size}:force_original_aspect_ratio=decrease,pad=${size}:${size}:(ow-iw)/2:(oh-ih)/2:color=white,setsar=1,fps=25,format=yuv420p[v$n];"
    n=$((n + 1))
  done
done
# Chain the pictures with cross-fades: the k-th fade starts once k holds and k-1 fades have passed.
last="v0"
for ((k = 1; k < n; k++)); do
  offset=$(echo "$k * $hold + ($k - 1) * $fade" | bc)
  filters+="[$last][v$k]xfade=transition=fade:duration=$fade:offset=$offset[x$k];"
  last="x$k"
done
ffmpeg -y -loglevel error "${inputs[@]}" -filter_complex "${filters%;}" -map "[$last]" \
  -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -an "$out/intro.webm"
# The poster is the first flat-lay: what the video shows before it plays, and if it never does.
ffmpeg -y -loglevel error -i "$src/${pairs[0]}-after.webp" \
  -vf "scale=${size}:${size}:force_original_aspect_ratio=decrease,pad=${size}:${size}:(ow-iw)/2:(oh-ih)/2:color=white" \
  -quality 80 "$out/intro-poster.webp"
ls -l "$out"
