"""A runtime floor trip count (``range(n // B)``) skips elements only where the loop moves an access:
a tile of lanes, or one element per iteration. A loop that moves none (``for node in
range(world_size // local_world_size)`` around library calls, as distributed kernels count nodes;
``range(nbytes // 16)`` around inline-assembly copies) shows no elements its floor would skip."""

from __future__ import annotations

import textwrap

from tests.checking import findings, line_of

_HEAD = "import triton\nimport triton.language as tl\n\n\n"


_SUM = _HEAD + textwrap.dedent('''\
    @triton.jit
    def k(x, out, n, start, BLOCK: tl.constexpr, REVERSE: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        curr = start
        for i in range(n // BLOCK):
            BODY
        tl.store(out + tl.arange(0, BLOCK), acc)
    ''')


def test_a_floor_loop_that_moves_lanes_is_reported() -> None:
    for body in ("acc += tl.load(x + i * BLOCK + tl.arange(0, BLOCK))",  # offsets of the loop variable
                 ("offs = curr + tl.arange(0, BLOCK)\n"  # an offset the loop carries
                  "        acc += tl.load(x + offs, mask=offs < n)\n"
                  "        curr += BLOCK"),
                 ("i_t = n // BLOCK - 1 - i if REVERSE else i\n"  # fla cumsum: a compile-time direction
                  "        acc += tl.load(x + i_t * BLOCK + tl.arange(0, BLOCK))"),
                 ("i_t = n // BLOCK - 1 - i if REVERSE else i\n"  # the same through a block pointer
                  "        p = tl.make_block_ptr(x, (n,), (1,), (i_t * BLOCK,), (BLOCK,), (0,))\n"
                  "        acc += tl.load(p, boundary_check=(0,))")):
        src = _SUM.replace("BODY", body)
        assert findings(src) == [(line_of(src, "for i in range"), "BC301")], body


def test_a_floor_loop_over_one_element_per_iteration_is_reported() -> None:
    src = _HEAD + textwrap.dedent('''\
        @triton.jit
        def k(mid, out, n, stride, BLOCK: tl.constexpr):
            b = tl.program_id(0)
            acc = 0.0
            for i in range(n // BLOCK):
                acc += tl.load(mid + b * stride + i)
            tl.store(out + b, acc)
        ''')
    assert findings(src) == [(line_of(src, "for i in range"), "BC301")]


def test_a_floor_loop_that_counts_nodes_around_library_calls_is_silent() -> None:
    src = _HEAD + "import triton_dist.language as dl\nfrom triton_dist.language.extra import libshmem_device\n\n\n" \
        + textwrap.dedent('''\
        @triton.jit
        def k(buf, local_world_size, max_tokens, nbytes):
            rank = dl.rank()
            node_id = rank // local_world_size
            nnodes = dl.num_ranks() // local_world_size
            for node_offset in range(0, nnodes):
                target = (node_id + node_offset + 1) % nnodes
                peer = rank % local_world_size + target * local_world_size
                libshmem_device.putmem_nbi_warp(buf, buf, nbytes, peer)
        ''')
    assert findings(src) == []


_VECTOR_COPY = _HEAD + "import triton_dist.language as dl\n\n\n" + textwrap.dedent('''\
    @triton.jit
    def copy(src, dst, n, BLOCK: tl.constexpr):
        VEC: tl.constexpr = 128 // src.dtype.element_ty.primitive_bitwidth
        tid = dl.thread_idx()
        for i in range(tid, n // VEC, BLOCK):
            dl.st_vector(dst + i * VEC, dl.ld_vector(src + i * VEC, vec_size=VEC))
        TAIL
    ''')


def test_a_floor_loop_handing_vector_addresses_to_library_calls_is_reported() -> None:
    # Triton-distributed's multimem all-reduce: `elems // VEC_SIZE` vectors, and no tail
    src = _VECTOR_COPY.replace("TAIL", "")
    assert findings(src) == [(line_of(src, "for i in range(tid, n // VEC"), "BC301")]


def test_a_vector_loop_followed_by_a_loop_from_where_the_vectors_end_is_silent() -> None:
    src = _VECTOR_COPY.replace("TAIL", "for j in range(n // VEC * VEC + tid, n, BLOCK):\n"
                                       "        dl.st_vector(dst + j, dl.ld_vector(src + j, vec_size=1))")
    assert findings(src) == []


_BLOCKS_BEFORE = _HEAD + textwrap.dedent('''\
    @triton.jit
    def k(q, dq, indices, T, S: tl.constexpr, BT: tl.constexpr, BS: tl.constexpr, K: tl.constexpr):
        i_t = CHUNK
        o_d = tl.arange(0, K)
        b = tl.zeros([BS, K], dtype=tl.float32)
        curr_end = (i_t * BT // S) * S
        for start in range(0, curr_end, S):
            o_k = start + tl.arange(0, BS)
            b += tl.load(q + o_k[:, None] * K + o_d[None, :], mask=(o_k < T)[:, None], other=0.0)
        tl.store(dq + tl.arange(0, BS)[:, None] * K + o_d[None, :], b)
    ''')


def test_whole_blocks_before_a_loaded_chunk_start_are_no_floor_of_an_extent() -> None:
    # fla path_attn: `i_t` read from a varlen kernel's chunk indices is a position, as a program id is
    assert findings(_BLOCKS_BEFORE.replace("CHUNK", "tl.load(indices + tl.program_id(0) * 2 + 1)")) == []
    assert findings(_BLOCKS_BEFORE.replace("CHUNK", "tl.program_id(0)")) == []


def test_a_floor_of_a_loaded_length_is_still_reported() -> None:
    src = _BLOCKS_BEFORE.replace("CHUNK", "tl.load(indices + tl.program_id(0))").replace("i_t * BT // S", "i_t // S")
    assert findings(src) == [(line_of(src, "for start in range"), "BC301")]


_VECTORS = _HEAD + textwrap.dedent('''\
    @triton.jit
    def copy(dst, src, n, V: tl.constexpr):
        lanes = tl.arange(0, V)
        for i in range(n // V):
            tl.store(dst + i * V + lanes, tl.load(src + i * V + lanes))
        AFTER
    ''')


def test_a_remainder_taken_up_after_the_floor_loop_handles_its_tail() -> None:
    """``rest = n % V`` after the loop over ``n // V`` vectors: the kernel goes on with the tail."""
    src = _VECTORS.replace("AFTER", "rest = n % V\n"
                           "    for j in range(rest):\n"
                           "        tl.store(dst + n - rest + j, tl.load(src + n - rest + j))")
    assert findings(src) == []


def test_a_remainder_of_another_tile_or_before_the_loop_does_not() -> None:
    other = _VECTORS.replace("AFTER", "tl.store(dst + n, n % (2 * V))")
    assert findings(other) == [(line_of(other, "for i in range"), "BC301")]
    before = _VECTORS.replace("        for i in range", "        even = n % V\n        for i in range").replace(
        "AFTER", "tl.store(dst + n, even)")
    assert (line_of(before, "for i in range"), "BC301") in findings(before)
