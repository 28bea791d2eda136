"""An inclusive early exit (``if (idx > n) return;``) in front of a loop that walks up from that
index strictly below the same limit (``for (i = idx; i < n; i += stride)``) lets no access reach n:
the loop runs no iteration once the index does (ColossalAI's act_and_mul). The same exit in front
of an access outside such a loop, or a loop that is itself inclusive, is still an off-by-one."""

from boundcheck.model import Language
from tests.checking import findings, line_of

ACT_AND_MUL = """\
__global__ void act_and_mul(const float* ins, float* outs, const long numel) {
    long idx = threadIdx.x + blockIdx.x * blockDim.x;
    const long grid_size = blockDim.x * gridDim.x;
    if (idx > numel) {
        return;
    }
    for (long i = idx; i < numel; i += grid_size) {
        outs[i] = ins[i] * ins[i + numel];
    }
}
"""

EXIT = line_of(ACT_AND_MUL, "if (idx > numel)")


def test_an_inclusive_exit_before_a_strict_walk_from_its_index_is_harmless() -> None:
    assert findings(ACT_AND_MUL, Language.CUDA) == []


def test_an_inclusive_exit_before_a_direct_access_is_an_off_by_one() -> None:
    src = ACT_AND_MUL.replace("    }\n}\n", "    }\n    outs[idx] = 0.f;\n}\n")
    assert (EXIT, "BC104") in findings(src, Language.CUDA)


def test_an_inclusive_walk_is_an_off_by_one() -> None:
    src = ACT_AND_MUL.replace("i < numel;", "i <= numel;")
    assert (line_of(src, "for (long i = idx;"), "BC104") in findings(src, Language.CUDA)
