"""CUDA code that is in bounds without a remainder test or a strict bound. A floored grid is exact
where the host checks the length to be a power of two (``(n & (n - 1)) == 0``, or an odd-part
helper of the file asserted to return 1) in a branch where it is at least the grid's power-of-two
tile. An inclusive bound ``i <= n`` is intended where the kernel itself writes the list it covers
at index n (an exclusive scan's total). Each is silent, and the same code with a tile the length
may be smaller than, a helper that does not strip factors of two, or a list written short of n,
is reported."""

from __future__ import annotations

from boundcheck.model import Language
from tests.checking import findings as _findings
from tests.checking import line_of


def findings(src: str) -> list[tuple[int, str]]:
    return _findings(src, Language.CUDA)


ODD_PART = """\
#include <assert.h>
#define TILE 1024U

__global__ void merge_tiles(unsigned* keys, unsigned len) {
    unsigned i = blockIdx.x * TILE + threadIdx.x;
    keys[i] = keys[i] + len;
    keys[i + TILE / 2] = keys[i];
}

unsigned odd_part(unsigned* shifts, unsigned n) {
    if (!n) {
        *shifts = 0;
        return 0;
    }
    for (*shifts = 0; (n & 1) == 0; n >>= 1, ++*shifts)
        ;
    return n;
}

void sort_batches(unsigned* d_keys, unsigned batch, unsigned len) {
    if (len < 2)
        return;
    unsigned shifts;
    unsigned rest = odd_part(&shifts, len);
    assert(rest == 1);
    unsigned blocks = batch * len / TILE;
    if (len <= TILE) {
        assert((batch * len) % TILE == 0);
        merge_tiles<<<blocks, TILE / 2>>>(d_keys, len);
    } else {
        merge_tiles<<<blocks, TILE / 2>>>(d_keys, TILE);
        merge_tiles<<<(batch * len) / 512, 256>>>(d_keys, len);
    }
}
"""


def test_a_power_of_two_length_above_the_tile_fills_the_floored_grid():
    assert findings(ODD_PART) == []


def test_a_length_that_may_be_half_the_tile_leaves_a_tail():
    bad = ODD_PART.replace("if (len <= TILE)", "if (len < 512)")
    assert findings(bad) == [(line_of(bad, "unsigned blocks ="), "BC302")]


def test_a_helper_that_strips_factors_of_three_says_nothing_of_powers_of_two():
    bad = ODD_PART.replace("(n & 1) == 0; n >>= 1", "n % 3 == 0; n /= 3")
    assert findings(bad) == [(line_of(bad, "unsigned blocks ="), "BC302"), (line_of(bad, "/ 512, 256"), "BC302")]


def test_a_helper_that_halves_twice_per_even_test_is_not_an_odd_part():
    bad = ODD_PART.replace("n >>= 1, ++*shifts", "n >>= 2, ++*shifts")
    assert findings(bad) == [(line_of(bad, "unsigned blocks ="), "BC302"), (line_of(bad, "/ 512, 256"), "BC302")]


def test_a_helper_declared_but_defined_elsewhere_is_not_read():
    bad = ODD_PART.replace(ODD_PART[ODD_PART.index("unsigned odd_part"):ODD_PART.index("void sort_batches")],
                           "unsigned odd_part(unsigned* shifts, unsigned n);\n\n")
    assert findings(bad) == [(line_of(bad, "unsigned blocks ="), "BC302"), (line_of(bad, "/ 512, 256"), "BC302")]


def test_an_assert_in_the_other_arm_does_not_reach_the_launch():
    bad = ODD_PART.replace("    assert(rest == 1);\n", "").replace(
        "assert((batch * len) % TILE == 0);", "assert((batch * len) % TILE == 0);\n        assert(rest == 1);")
    assert findings(bad) == [(line_of(bad, "unsigned blocks ="), "BC302"), (line_of(bad, "/ 512, 256"), "BC302")]


BIT_TEST = """\
#include <assert.h>
#include <stdlib.h>

__global__ void butterfly(float* x, int n) {
    int i = blockIdx.x * 256 + threadIdx.x;
    x[i] = x[i] * n;
}

void fft_rows(float* d_x, int rows, int n) {
    if (n < 256 || (n & (n - 1)) != 0) {
        exit(1);
    }
    butterfly<<<rows * n / 256, 256>>>(d_x, n);
}

void fft_cols(float* d_x, int cols, int n) {
    assert(n >= 512 && !(n & (n - 1)));
    butterfly<<<cols * n / 256, 256>>>(d_x, n);
}
"""


def test_a_rejected_or_asserted_bit_test_makes_the_length_a_power_of_two():
    assert findings(BIT_TEST) == []


def test_a_power_of_two_below_the_tile_is_no_multiple_of_it():
    bad = BIT_TEST.replace("n < 256 ||", "n < 128 ||")
    assert findings(bad) == [(line_of(bad, "rows * n / 256"), "BC302")]


def test_a_sum_with_a_power_of_two_is_not_a_multiple_of_it():
    bad = BIT_TEST.replace("cols * n / 256", "(cols + n) / 256")
    assert findings(bad) == [(line_of(bad, "(cols + n) / 256"), "BC302")]



CONST_BOUNDS = """\
#include <assert.h>
#define BLOCK 256

const unsigned MIN_LARGE = 8 * BLOCK;

__global__ void scan_tiles(uint4* data, unsigned len) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i].x += len;
}

static unsigned odd_part(unsigned& shifts, unsigned n) {
    if (!n) {
        shifts = 0;
        return 0;
    }
    for (shifts = 0; n % 2 == 0; n = n / 2, shifts++)
        ;
    return n;
}

void scan_large(uint4* d_data, unsigned batch, unsigned len) {
    unsigned shifts;
    unsigned rest = odd_part(shifts, len);
    assert(rest == 1);
    assert(len >= MIN_LARGE && len <= 4 * BLOCK * BLOCK);
    scan_tiles<<<(batch * len) / (4 * BLOCK), BLOCK>>>(d_data, len);
}
"""


def test_a_constant_lower_bound_and_a_product_tile_are_read():
    assert findings(CONST_BOUNDS) == []


def test_a_lower_bound_under_the_tile_leaves_a_tail():
    bad = CONST_BOUNDS.replace("MIN_LARGE = 8 * BLOCK", "MIN_LARGE = 2 * BLOCK")
    assert findings(bad) == [(line_of(bad, "scan_tiles<<<"), "BC302")]


def test_a_tile_macro_defined_per_branch_has_no_one_value():
    bad = CONST_BOUNDS.replace("#define BLOCK 256\n", "#ifdef WIDE\n#define BLOCK 4096\n#else\n#define BLOCK 256\n#endif\n")
    assert findings(bad) == [(line_of(bad, "scan_tiles<<<"), "BC302")]


SCAN_END = """\
__global__ void block_starts(const unsigned* sizes, unsigned* starts, unsigned* totals, unsigned n,
                             unsigned total) {
    __shared__ unsigned s_list[513];
    unsigned* s_scan = s_list + 1;
    unsigned tid = threadIdx.x;
    if (tid < n) {
        s_scan[tid] = sizes[tid];
    }
    __syncthreads();
    --s_scan;
    if (tid == 0) {
        s_scan[n] = total;
    }
    __syncthreads();
    if (tid <= n) {
        starts[tid] = s_list[tid];
    }
}
"""


def test_an_inclusive_bound_over_a_list_written_at_its_limit_is_intended():
    assert findings(SCAN_END) == []


def test_a_list_written_one_short_of_the_limit_keeps_the_off_by_one():
    bad = SCAN_END.replace("s_scan[n] = total", "s_scan[n - 1] = total")
    assert findings(bad) == [(line_of(bad, "tid <= n"), "BC104")]


def test_a_pointer_stepped_back_is_followed():
    # without the step back, s_scan[n] is s_list[n + 1]: no write at n itself
    bad = SCAN_END.replace("    --s_scan;\n", "")
    assert findings(bad) == [(line_of(bad, "tid <= n"), "BC104")]
    bad = SCAN_END.replace("--s_scan", "++s_scan")
    assert findings(bad) == [(line_of(bad, "tid <= n"), "BC104")]


def test_a_list_the_bound_does_not_cover_says_nothing_of_it():
    bad = SCAN_END.replace("s_scan[n] = total", "totals[n] = total")
    assert findings(bad) == [(line_of(bad, "tid <= n"), "BC104")]


CSR_COPY = """\
__global__ void row_sums(const int* offsets, const float* vals, float* sums, int* starts, int rows) {
    for (int i = threadIdx.x; i <= rows; i += blockDim.x) {
        starts[i] = offsets[i];
    }
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float acc = 0.0f;
        for (int j = offsets[r]; j < offsets[r + 1]; ++j) {
            acc += vals[j];
        }
        sums[r] = acc;
    }
}
"""


def test_an_inclusive_bound_over_a_list_read_at_its_limit_is_intended():
    # `offsets[rows]` read as the total: the list holds rows + 1 entries
    src = CSR_COPY.replace("    int r = blockIdx.x", "    int total = offsets[rows];\n    int r = blockIdx.x")
    src = src.replace("sums[r] = acc;", "sums[r] = acc / total;")
    assert findings(src) == []


def test_an_inclusive_bound_over_a_list_read_at_a_row_end_is_intended():
    # `offsets[r + 1]` under `r < rows` reaches offsets[rows]: a CSR list of rows + 1 entries
    assert findings(CSR_COPY) == []


def test_a_list_read_short_of_its_limit_keeps_the_off_by_one():
    bad = CSR_COPY.replace("offsets[r + 1]", "offsets[r] + 1")
    assert findings(bad) == [(line_of(bad, "i <= rows"), "BC104")]
    bad = CSR_COPY.replace("if (r < rows)", "if (r < rows - 1)")
    assert findings(bad) == [(line_of(bad, "i <= rows"), "BC104")]


def test_a_row_end_under_an_inclusive_bound_is_no_evidence_for_that_bound():
    # the mutant `r <= rows` over the same list: its own reads cannot vouch for it
    bad = CSR_COPY.replace("for (int i = threadIdx.x; i <= rows; i += blockDim.x) {\n        starts[i] = offsets[i];\n    }\n", "")
    bad = bad.replace("if (r < rows)", "if (r <= rows)")
    assert findings(bad) == [(line_of(bad, "r <= rows"), "BC104")]


SENTINEL = """\
__global__ void tile_offsets(const int* sorted_tiles, int* offsets, int n, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n) {
        return;
    }
    if (i == n) {
        offsets[i] = total;
        return;
    }
    offsets[i] = sorted_tiles[i];
}
"""


def test_an_inclusive_bound_over_a_list_written_at_its_count_under_an_equality_is_intended():
    # a CSR's trailing sentinel: the thread with i == n writes offsets[n], so the list has n + 1
    assert findings(SENTINEL) == []


def test_an_equality_with_another_value_says_nothing_of_the_count():
    bad = SENTINEL.replace("if (i == n)", "if (i == 0)")
    assert findings(bad) == [(line_of(bad, "if (i > n)"), "BC104")]
