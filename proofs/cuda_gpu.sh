#!/usr/bin/env bash
# The CUDA proof on a GPU: run from the repository root with OUT set to an output folder.
#   OUT=/some/dir bash proofs/cuda_gpu.sh
# Needs nvcc, compute-sanitizer (on PATH or under /usr/local/cuda/bin) and python3; no torch, no
# network. Compiles every CUDA fixture for sm_90, runs each at its boundary shapes plainly and
# under compute-sanitizer memcheck, and writes $OUT/cuda.json (copy it to
# fixtures/evidence/cuda.json) and $OUT/cuda.log. Exit status 1 if a fixture misbehaved.
set -euo pipefail
: "${OUT:?set OUT to an output folder}"
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
build="$(mktemp -d "${TMPDIR:-/tmp}/boundcheck-cuda-XXXXXX")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/cuda.log" 2>&1 || true
# The whole run takes one to three minutes on an H200; the limit keeps it inside an 8-minute slot.
timeout 450 python3 -m proofs.cuda_run --out "$OUT/cuda.json" --build "$build" 2>&1 | tee -a "$OUT/cuda.log"
