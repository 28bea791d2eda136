"""A loop counter stepping the access by whole multiples of the guard's own limit moves it to
another row of that length: ``t[j * D + i]`` under ``for (i = tid; i < D; i += T)`` reads column i
of row j, and the guard bounds the column (ColossalAI's flash-decoding reduction). A step by any
other size (``t[j * T + i]``) still leaves the guard bounding the first element only."""

from boundcheck.model import Language
from tests.checking import findings, line_of

REDUCE = """\
template <int HEAD_SIZE, int NUM_THREADS>
__global__ void reduce_parts(float* out, const float* parts, const float* weights, int max_parts,
                             const int* lens) {
  const int seq = blockIdx.y;
  const int n_parts = lens[seq];
  const float* parts_ptr = parts + seq * max_parts * HEAD_SIZE;
  float* out_ptr = out + seq * HEAD_SIZE;
  for (int i = threadIdx.x; i < HEAD_SIZE; i += NUM_THREADS) {
    float acc = 0.f;
    for (int j = 0; j < n_parts; j++) {
      acc += parts_ptr[j * STEP + i] * weights[j];
    }
    out_ptr[i] = acc;
  }
}
"""


def test_rows_of_the_guarded_length_keep_the_column_guard() -> None:
    assert findings(REDUCE.replace("STEP", "HEAD_SIZE"), Language.CUDA) == []


def test_steps_of_another_size_pass_the_guard() -> None:
    src = REDUCE.replace("STEP", "NUM_THREADS")
    assert findings(src, Language.CUDA) == [(line_of(src, "acc += parts_ptr["), "BC101")]
