#!/usr/bin/env bash
# The Triton proof on a GPU: run from the repository root with OUT set to an output folder.
#   OUT=/some/dir bash proofs/triton_gpu.sh
# Needs only python3 with torch and triton (the GPU image: torch 2.11, triton 3.6.0); no network.
# Writes $OUT/triton.json (copy it to fixtures/evidence/triton.json) and $OUT/triton.log.
set -euo pipefail
: "${OUT:?set OUT to an output folder}"
mkdir -p "$OUT"
unset TRITON_INTERPRET
export TRITON_CACHE_DIR="${TRITON_CACHE_DIR:-$(mktemp -d)}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/triton.log" 2>&1 || true
python3 -m proofs.triton_run --device cuda --out "$OUT/triton.json" 2>&1 | tee -a "$OUT/triton.log"
