"""A member of a template parameter (``KV::D_ROPE``, a dependent name libclang leaves unspelled) is
a compile-time value named by its text: its floors are no problem size's (flashinfer's sparse MLA
decode, ``ROPE_N_TILES = D_ROPE / N_WARPS / 8``, was reported as a loop running `` / N_WARPS / 8``
times)."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings

TILES = """\
constexpr int NW = 8;
template <typename KV>
__global__ void k(float* out, int n) {
  constexpr int D = KV::D_ROPE;
  constexpr int TILES = D / NW / 8;
  for (int nt = 0; nt < TILES; nt++) {
    out[nt * 8 + threadIdx.x % 8] = 1.0f;
  }
}
"""


def test_a_template_members_floor_is_compile_time() -> None:
    assert [f for f in findings(TILES, Language.CUDA) if f[1] == "BC301"] == []

