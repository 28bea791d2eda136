"""The CUDA frontend's speed-ups keep what it reports: the precompiled stub header, the per-cursor
caches (children, arguments, locations), the lexer's identifier fast path, and a parse that
leaves no reference cycle behind."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import clang.cindex as ci

from boundcheck.frontends import cuda_parse
from boundcheck.frontends.cuda_expr import Converter
from boundcheck.frontends.cuda_parse import Source, arguments, child_list, first, last, parse, preorder
from boundcheck.model import Language
from tests.checking import findings, line_of

K = ci.CursorKind

# a warp-shuffle reduction (stub declarations), a helper, a loop and an unguarded tail read
REDUCE = """\
#define TILE 256
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void row_sum(const float* x, float* out, int n) {
    float acc = 0.0f;
    for (int k = 0; k < n; k += TILE) {
        acc += x[blockIdx.x * n + k + threadIdx.x];
    }
    acc = warp_sum(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}
"""


def test_stub_is_precompiled_once_and_its_declarations_resolve():
    parsed = parse("k.cu", REDUCE, [])
    assert "-include-pch" in cuda_parse._stub_args([])
    assert cuda_parse._stub_pch(()) == cuda_parse._stub_pch(())
    assert parsed.diagnostics == []  # __shfl_xor_sync and threadIdx come from the precompiled stub


def test_unit_lists_only_the_files_own_declarations():
    """The stub's declarations are left out of the unit's children (the index excludes what a
    precompiled header declares): the walkers see the file's two functions, nothing more."""
    parsed = parse("k.cu", REDUCE, [])
    assert [c.spelling for c in child_list(parsed.source.root)] == ["warp_sum", "row_sum"]


def test_findings_match_a_parse_with_the_stub_as_text(monkeypatch):
    with_pch = findings(REDUCE, Language.CUDA)
    monkeypatch.setattr(cuda_parse, "_stub_pch", lambda user: None)
    assert findings(REDUCE, Language.CUDA) == with_pch
    assert (line_of(REDUCE, "acc += x["), "BC101") in with_pch


def test_arguments_are_the_call_children_objects():
    parsed = parse("k.cu", REDUCE, [])
    call = next(c for c in preorder(parsed.source.root) if c.kind == K.CALL_EXPR and c.spelling == "warp_sum")
    args = arguments(call)
    assert len(args) == 1 and args[0] is child_list(call)[-1]
    assert arguments(call) is args


def test_arguments_keep_default_arguments_the_children_lack():
    src = """\
__device__ int clampi(int v, int hi = 7) { return v < hi ? v : hi; }
__global__ void k(int* a) { a[0] = clampi(a[1]); }
"""
    parsed = parse("k.cu", src, [])
    call = next(c for c in preorder(parsed.source.root) if c.kind == K.CALL_EXPR and c.spelling == "clampi")
    assert len(arguments(call)) == len(list(call.get_arguments())) == 2


def test_locations_agree_with_libclang():
    parsed = parse("k.cu", REDUCE, [])
    for c in preorder(parsed.source.root):
        if c.kind == K.TRANSLATION_UNIT:
            continue
        start, end = c.extent.start, c.extent.end
        assert (first(c).line, first(c).column, first(c).offset) == (start.line, start.column, start.offset)
        assert (last(c).line, last(c).column, last(c).offset) == (end.line, end.column, end.offset)
        assert (first(c).file is None) == (start.file is None)


def test_children_keep_kind_and_spelling():
    parsed = parse("k.cu", REDUCE, [])
    for c in preorder(parsed.source.root):
        for k in child_list(c):
            assert k.kind == ci.CursorKind.from_id(k._kind_id)
            assert k.spelling == ci.conf.lib.clang_getCursorSpelling(k)


def test_lexer_spells_literal_prefixes_as_clang_does():
    text = 'u8R"x(a)x" L"s" u\'c\' FMT"a" foo$bar .5e+3 a->*b x<<=1 LR"(y)" 1\'000 /* c */ z // d\n'
    src = Source("k.cu", text)
    assert [t.text for t in src.tokens_between(0, len(text))] == [
        'u8R"x(a)x"', 'L"s"', "u'c'", "FMT", '"a"', "foo$bar", ".5e+3", "a", "->*", "b", "x", "<<=", "1",
        'LR"(y)"', "1'000", "z"]


def test_converter_hooks_do_not_keep_their_owner_alive():
    class Owner:
        def __init__(self, conv: Converter) -> None:
            self.conv = conv
            conv.on_subscript = self.seen

        def seen(self, c, scope) -> None:
            pass

    conv = Converter(Source("k.cu", ""), set(), {})
    owner = Owner(conv)
    assert conv.on_subscript == owner.seen
    del owner
    assert conv.on_subscript is None  # freed at once: no cycle through the converter
    conv.on_conditional = print  # a plain function is held as it is
    assert conv.on_conditional is print


def test_checking_a_file_leaves_no_cyclic_garbage():
    """Without cycles every cursor (and the translation unit behind it) is freed when the check
    ends, instead of piling up until a full collection walks them all."""
    findings(REDUCE, Language.CUDA)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        findings(REDUCE, Language.CUDA)
        gc.collect()
        leaked = [o for o in gc.garbage if isinstance(o, (ci.Cursor, ci.TranslationUnit, Converter))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert leaked == []


def test_operators_are_kept_per_cursor_and_per_question():
    """A cursor keeps what libclang said of it as a binary and as a unary operator apart: asking
    the wrong question first does not spoil the right answer."""
    parsed = parse("k.cu", "__global__ void k(int* a, int n) { a[0] = -n; a[1] += n; }\n", [])
    nodes = list(preorder(parsed.source.root))
    neg = next(c for c in nodes if c.kind == K.UNARY_OPERATOR)
    add = next(c for c in nodes if c.kind == K.COMPOUND_ASSIGNMENT_OPERATOR)
    assert (cuda_parse.binary_op(neg), cuda_parse.unary_op(neg)) == ("?", "-")
    assert (cuda_parse.unary_op(add), cuda_parse.binary_op(add)) == ("?", "+=")
    assert (cuda_parse.binary_op(neg), cuda_parse.binary_op(add)) == ("?", "+=")


def _worker_pch(_: int) -> str:
    return cuda_parse._stub_pch(("-DBC_WORKER_TEST",))


def test_precompiled_stub_is_removed_when_its_process_ends():
    """A pool worker's exit skips atexit: its stub must still go, and never its parent's."""
    mine = cuda_parse._stub_pch(())
    with ProcessPoolExecutor(2) as pool:
        theirs = set(pool.map(_worker_pch, range(4)))
    assert theirs and not any(os.path.exists(p) for p in theirs)
    assert os.path.exists(mine)
    code = "from boundcheck.frontends import cuda_parse; print(cuda_parse._stub_pch(()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.stdout.strip().endswith(".pch") and not os.path.exists(out.stdout.strip())
