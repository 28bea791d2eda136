"""An exclusive scan stores n + 1 entries: ``tmp[0] = 0`` and ``tmp[i + 1] = tmp[i] + len[i]`` for
``i < n`` write its total at index n, so a copy of the list under ``i <= n`` (or ``i < n + 1``,
the same bound written the other way) walks the list's own length: no off-by-one (BC104). The
same copy of a list the kernel fills at ``i`` only (n entries), or without the scan's start at 0,
stays reported."""

from __future__ import annotations

import pytest

from boundcheck.model import Language
from tests.checking import at, findings

SCAN = """\
__global__ void offsets(int* out, const int* len, const int n) {
    extern __shared__ int tmp[];
    if (threadIdx.x == 0) {
        tmp[0] = 0;
        for (int i = 0; i < n; i++) {
            tmp[i + 1] = tmp[i] + len[i];
        }
    }
    __syncthreads();
    for (int i = threadIdx.x; BOUND; i += blockDim.x) {
        out[i] = tmp[i];
    }
}
void run(int* out, const int* len, int n) { offsets<<<1, 256, sizeof(int) * (n + 1)>>>(out, len, n); }
"""

BOUNDS = ["i <= n", "i < n + 1"]


@pytest.mark.parametrize("bound", BOUNDS)
def test_a_copy_of_an_exclusive_scan_walks_its_n_plus_one_entries(bound: str) -> None:
    assert findings(SCAN.replace("BOUND", bound), Language.CUDA) == []


@pytest.mark.parametrize("bound", BOUNDS)
def test_a_list_filled_at_its_counter_only_is_walked_one_past_its_end(bound: str) -> None:
    src = SCAN.replace("BOUND", bound).replace("tmp[i + 1] = tmp[i] + len[i]", "tmp[i] = len[i]")
    assert findings(src, Language.CUDA) == at(src, "i += blockDim.x", "BC104")


@pytest.mark.parametrize("bound", BOUNDS)
def test_a_shifted_write_without_the_scan_start_is_no_evidence(bound: str) -> None:
    # `tmp[i + 1]` alone may be a list shifted by one into a buffer of n: nothing says index n exists
    src = SCAN.replace("BOUND", bound).replace("        tmp[0] = 0;\n", "")
    assert findings(src, Language.CUDA) == at(src, "i += blockDim.x", "BC104")


def test_a_scan_of_two_entries_per_step_reaches_twice_the_count() -> None:
    # `tmp[2 * i + 2]` for i < n stores index 2n: the copy's `i < 2 * n + 1` walks 2n + 1 entries
    src = SCAN.replace("tmp[i + 1] = tmp[i] + len[i];",
                       "tmp[i * 2 + 1] = tmp[i * 2] + len[i];\n            tmp[i * 2 + 2] = 64 * (i + 1);")
    assert findings(src.replace("BOUND", "i < 2 * n + 1"), Language.CUDA) == []
    past = src.replace("BOUND", "i < 2 * n + 2")
    assert findings(past, Language.CUDA) == at(past, "i += blockDim.x", "BC104")


HALO = """\
__global__ void cell_starts(const unsigned* hash_of, unsigned* start, const unsigned* order, unsigned* out, int n) {
    extern __shared__ unsigned shared_hash[];
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned hash;
    if (index < n) {
        hash = hash_of[index];
        shared_hash[threadIdx.x + 1] = hash;
        if (index > 0 && threadIdx.x == 0) shared_hash[0] = hash_of[index - 1];
    }
    __syncthreads();
    if (index <= n) {
        if (index == 0 || hash != shared_hash[threadIdx.x]) start[hash] = index;
        out[index] = order[index];
    }
}
"""


def test_a_block_halo_in_shared_memory_is_no_scan() -> None:
    # `shared_hash[0]` and `shared_hash[threadIdx.x + 1]` under the lane's guard are the block's
    # neighbour slot, not a list of n + 1: the `<=` over the global arrays stays an off-by-one
    assert findings(HALO, Language.CUDA) == at(HALO, "if (index <= n)", "BC104")
