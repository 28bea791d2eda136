"""What each Triton fixture computes, how to feed it, and how to judge it.

Every fixture module exposes `launch(...)`, a host wrapper whose signature is fixed by its
*kind* (below). A case names the kind, the tile sizes the fixture uses (the boundary shapes are
built around them), the oracle that shows its bug, and, for good fixtures that rely on a
divisibility contract instead of a mask, the dimensions the contract covers: those fixtures only
run at shapes rounded up to satisfy it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch

Shape = dict[str, int]

CPU_PRIME_GEMM = {"M": 101, "N": 103, "K": 1009}  # the interpreter is slow; K carries the prime
CPU_LARGE = {"n": 65_537, "N": 4_099, "M2d": 515, "N2d": 1_031, "gemm": {"M": 259, "N": 131, "K": 1_031}}
GPU_LARGE = {"n": 1_048_583, "N": 16_411, "M2d": 4_099, "N2d": 2_053, "gemm": {"M": 2_053, "N": 1_031, "K": 4_099}}
ROWS = 5  # rows in row-wise kinds; the shape pattern applies to the row length N


def _pattern(tile: int, prime: int, large: int) -> list[tuple[str, int]]:
    return [("one-tile", tile), ("tile-1", tile - 1), ("tile+1", tile + 1), ("prime", prime),
            ("one-element", 1), ("large", large)]


def _ints(gen: torch.Generator, shape: tuple[int, ...], low: int, high: int) -> torch.Tensor:
    """Small positive integers: float32 sums and dots of them are exact, so any error is a bug."""
    return torch.randint(low, high + 1, shape, generator=gen).to(torch.float64)


@dataclass(frozen=True)
class Kind:
    """A problem family: shapes, inputs, float64 reference, and how `launch` is called."""

    name: str
    shapes: Callable[[dict[str, int], str], list[tuple[str, Shape]]]
    inputs: Callable[[Shape, torch.Generator], dict[str, torch.Tensor]]
    reference: Callable[[dict[str, torch.Tensor]], dict[str, torch.Tensor]]
    band: Callable[[Shape, dict[str, int]], int]
    atol: float = 1e-5
    rtol: float = 1e-5


def _shapes_1d(tiles: dict[str, int], device: str) -> list[tuple[str, Shape]]:
    large = (CPU_LARGE if device == "cpu" else GPU_LARGE)["n"]
    return [(label, {"n": n}) for label, n in _pattern(tiles["BLOCK"], 1009, large)]


def _shapes_rows(tiles: dict[str, int], device: str) -> list[tuple[str, Shape]]:
    large = (CPU_LARGE if device == "cpu" else GPU_LARGE)["N"]
    return [(label, {"M": 1 if n == 1 else ROWS, "N": n})
            for label, n in _pattern(tiles["BLOCK"], 1009, large)]


def _shapes_2d(tiles: dict[str, int], device: str) -> list[tuple[str, Shape]]:
    sizes = CPU_LARGE if device == "cpu" else GPU_LARGE
    bm, bn = tiles["BLOCK_M"], tiles["BLOCK_N"]
    ms = _pattern(bm, 1009, sizes["M2d"])
    ns = _pattern(bn, 1009, sizes["N2d"])
    return [(label, {"M": m, "N": n}) for (label, m), (_, n) in zip(ms, ns)]


def _shapes_gemm(tiles: dict[str, int], device: str) -> list[tuple[str, Shape]]:
    sizes = CPU_LARGE if device == "cpu" else GPU_LARGE
    prime = CPU_PRIME_GEMM if device == "cpu" else {"M": 1009, "N": 1009, "K": 1009}
    out = []
    for label, _ in _pattern(1, 0, 0):
        if label == "prime":
            shape = dict(prime)
        elif label == "large":
            shape = dict(sizes["gemm"])
        else:
            shape = {d: dict(_pattern(tiles[f"BLOCK_{d}"], 0, 0))[label] for d in ("M", "N", "K")}
        out.append((label, shape))
    return out


def _band_1d(shape: Shape, tiles: dict[str, int]) -> int:
    return 4 * max(tiles.values())


def _band_rows(shape: Shape, tiles: dict[str, int]) -> int:
    return 2 * (triton_next_power_of_2(shape["N"]) + max(tiles.values()))


def _band_2d(shape: Shape, tiles: dict[str, int]) -> int:
    """Room for a whole tile of rows past the end: (tile + 1) rows of the widest dimension."""
    t = max(tiles.values())
    return (t + 1) * (max(shape.values()) + t)


def triton_next_power_of_2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _below_minus_five(gen: torch.Generator, shape: tuple[int, ...]) -> torch.Tensor:
    """All values <= -5: a zero pad then beats every real value in a max."""
    return -5.0 - 3.0 * torch.rand(shape, generator=gen, dtype=torch.float64)


KINDS: dict[str, Kind] = {}


def _kind(kind: Kind) -> None:
    KINDS[kind.name] = kind


_kind(Kind(
    "map1d",  # launch(x, y): y = 2x + 1
    _shapes_1d,
    lambda s, g: {"x": torch.randn(s["n"], generator=g, dtype=torch.float64)},
    lambda i: {"y": 2 * i["x"] + 1},
    _band_1d,
))
_kind(Kind(
    "sum1d",  # launch(x, out): out[0] = sum(x)
    _shapes_1d,
    lambda s, g: {"x": _ints(g, (s["n"],), 1, 4)},
    lambda i: {"out": i["x"].sum().reshape(1)},
    _band_1d,
))
_kind(Kind(
    "rowmax",  # launch(x, out): out[m] = max(x[m, :])
    _shapes_rows,
    lambda s, g: {"x": _below_minus_five(g, (s["M"], s["N"]))},
    lambda i: {"out": i["x"].amax(dim=1)},
    _band_rows,
))
_kind(Kind(
    "softmax",  # launch(x, y): y = softmax(x, dim=1)
    _shapes_rows,
    lambda s, g: {"x": _below_minus_five(g, (s["M"], s["N"]))},
    lambda i: {"y": torch.softmax(i["x"], dim=1)},
    _band_rows,
))
_kind(Kind(
    "rowsum",  # launch(x, out): out[m] = sum(x[m, :])
    _shapes_rows,
    lambda s, g: {"x": _ints(g, (s["M"], s["N"]), 1, 4)},
    lambda i: {"out": i["x"].sum(dim=1)},
    _band_rows,
))
_kind(Kind(
    "rowvar",  # launch(x, out): out[m] = mean((x[m, :] - mean(x[m, :])) ** 2)
    _shapes_rows,
    lambda s, g: {"x": 3.0 + torch.rand((s["M"], s["N"]), generator=g, dtype=torch.float64)},
    lambda i: {"out": i["x"].var(dim=1, unbiased=False)},
    _band_rows,
))
_kind(Kind(
    "map2d",  # launch(x, y): y = 2x + 1 on a 2-D tensor
    _shapes_2d,
    lambda s, g: {"x": torch.randn(s["M"], s["N"], generator=g, dtype=torch.float64)},
    lambda i: {"y": 2 * i["x"] + 1},
    _band_2d,
))
_kind(Kind(
    "rowsum2d",  # launch(x, out): out[m] = sum(x[m, :]), tiled over rows and columns
    _shapes_2d,
    lambda s, g: {"x": _ints(g, (s["M"], s["N"]), 1, 4)},
    lambda i: {"out": i["x"].sum(dim=1)},
    _band_2d,
))
_kind(Kind(
    "gemm",  # launch(a, b, c): c = a @ b
    _shapes_gemm,
    lambda s, g: {"a": _ints(g, (s["M"], s["K"]), 1, 3), "b": _ints(g, (s["K"], s["N"]), 1, 3)},
    lambda i: {"c": i["a"] @ i["b"]},
    _band_2d,
))


def _shapes_attention(tiles: dict[str, int], device: str) -> list[tuple[str, Shape]]:
    """The pattern on the key count N; 17 queries (one whole query tile of 16 and a partial one)."""
    large = (CPU_LARGE if device == "cpu" else GPU_LARGE)["N"]
    return [(label, {"M": 17, "N": n, "D": 16}) for label, n in _pattern(tiles["BLOCK_N"], 1009, large)]


def _attention(i: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    q, k, v = i["q"], i["k"], i["v"]
    return {"o": torch.softmax(q @ k.T * q.shape[1] ** -0.5, dim=1) @ v}


_kind(Kind(
    "attention",  # launch(q, k, v, o): o = softmax(q @ k.T / sqrt(D)) @ v, q [M, D], k and v [N, D]
    _shapes_attention,
    lambda s, g: {x: torch.randn((s["M"] if x == "q" else s["N"], s["D"]), generator=g, dtype=torch.float64)
                  for x in ("q", "k", "v")},
    _attention,
    lambda shape, tiles: 4 * max(tiles.values()) * shape["D"],
    atol=1e-4,
    rtol=1e-4,
))


@dataclass(frozen=True)
class Contract:
    """A divisibility contract a good fixture relies on instead of a mask.

    `multiples` maps a shape dimension to the tile it must be a multiple of; the harness runs
    the fixture only at shapes with those dimensions rounded up to a multiple.
    """

    text: str
    multiples: dict[str, str]

    def apply(self, shape: Shape, tiles: dict[str, int]) -> Shape:
        out = dict(shape)
        for dim, tile in self.multiples.items():
            t = tiles[tile]
            out[dim] = max(t, math.ceil(out[dim] / t) * t)
        return out


@dataclass(frozen=True)
class Case:
    kind: str
    tiles: dict[str, int]
    oracle: str  # the oracle that shows this fixture's bug (for good fixtures: the one to watch)
    contract: Contract | None = None
    note: str = ""

    def shapes(self, device: str) -> list[tuple[str, Shape]]:
        shapes = KINDS[self.kind].shapes(self.tiles, device)
        if self.contract is None:
            return shapes
        return [(label, self.contract.apply(s, self.tiles)) for label, s in shapes]


_T1 = {"BLOCK": 128}
_ROW = {"BLOCK": 64}  # row-wise kernels use next_power_of_2(N); the pattern is built around 64
_T2 = {"BLOCK_M": 32, "BLOCK_N": 32}
_TR = {"BLOCK_M": 16, "BLOCK_N": 32}
_TG = {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}
_ATT = {"BLOCK_M": 16, "BLOCK_N": 32}

CASES: dict[str, Case] = {
    # BC101 unguarded-load
    "BC101-unguarded-load/bad_sum_1d.py": Case("sum1d", _T1, "guard-read"),
    "BC101-unguarded-load/bad_gemm_unguarded.py": Case("gemm", _TG, "values"),
    "BC101-unguarded-load/bad_rowsum_2d_helper.py": Case("rowsum2d", _TR, "values"),
    "BC101-unguarded-load/good_sum_1d.py": Case("sum1d", _T1, "values"),
    "BC101-unguarded-load/good_gemm_contract.py": Case(
        "gemm", _TG, "values",
        Contract("host asserts M % BLOCK_M == 0, N % BLOCK_N == 0, K % BLOCK_K == 0",
                 {"M": "BLOCK_M", "N": "BLOCK_N", "K": "BLOCK_K"})),
    # BC102 unguarded-store
    "BC102-unguarded-store/bad_map_1d.py": Case("map1d", _T1, "canary"),
    "BC102-unguarded-store/bad_map_2d.py": Case("map2d", _T2, "canary"),
    "BC102-unguarded-store/bad_gemm_store.py": Case("gemm", _TG, "canary"),
    "BC102-unguarded-store/good_map_1d.py": Case("map1d", _T1, "canary"),
    "BC102-unguarded-store/good_map_1d_even.py": Case(
        "map1d", _T1, "canary",
        note="EVEN_N heuristic picks the unmasked store only when n % BLOCK == 0; runs at all shapes"),
    # BC103 partial-guard
    "BC103-partial-guard/bad_gemm_mn_only.py": Case("gemm", _TG, "values"),
    "BC103-partial-guard/bad_rowsum_2d_rows_only.py": Case("rowsum2d", _TR, "values"),
    "BC103-partial-guard/bad_map_2d_rows_only.py": Case("map2d", _T2, "canary"),
    "BC103-partial-guard/good_gemm_masked.py": Case("gemm", _TG, "values"),
    "BC103-partial-guard/good_gemm_even_k.py": Case(
        "gemm", _TG, "values",
        note="EVEN_K heuristic picks the K-unmasked loop only when K % BLOCK_K == 0; runs at all shapes"),
    "BC103-partial-guard/good_gemm_static_k.py": Case(
        "gemm", _TG, "values", Contract("tl.static_assert(K % BLOCK_K == 0), K constexpr", {"K": "BLOCK_K"})),
    # BC104 off-by-one-bound
    "BC104-off-by-one-bound/bad_sum_le.py": Case("sum1d", _T1, "guard-read"),
    "BC104-off-by-one-bound/bad_map_le_store.py": Case("map1d", _T1, "canary"),
    "BC104-off-by-one-bound/bad_rowsum_le.py": Case("rowsum", _ROW, "values"),
    "BC104-off-by-one-bound/good_sum_lt.py": Case("sum1d", _T1, "values"),
    "BC104-off-by-one-bound/good_map_lt_store.py": Case("map1d", _T1, "canary"),
    # BC201 undefined-padding
    "BC201-undefined-padding/bad_rowmax.py": Case("rowmax", _ROW, "values"),
    "BC201-undefined-padding/bad_softmax.py": Case("softmax", _ROW, "values"),
    "BC201-undefined-padding/good_softmax.py": Case("softmax", _ROW, "values"),
    "BC201-undefined-padding/good_rowmax_where.py": Case("rowmax", _ROW, "values"),
    # BC202 padding-not-identity
    "BC202-padding-not-identity/bad_rowmax_zero.py": Case("rowmax", _ROW, "values"),
    "BC202-padding-not-identity/bad_softmax_zero.py": Case("softmax", _ROW, "values"),
    "BC202-padding-not-identity/bad_rowsum_neginf.py": Case("rowsum", _ROW, "values"),
    "BC202-padding-not-identity/good_rowmax_neginf.py": Case("rowmax", _ROW, "values"),
    "BC202-padding-not-identity/good_rowsum_zero.py": Case("rowsum", _ROW, "values"),
    "BC202-padding-not-identity/bad_rowvar_centred.py": Case("rowvar", _ROW, "values"),
    "BC202-padding-not-identity/good_rowvar_where.py": Case("rowvar", _ROW, "values"),
    "BC202-padding-not-identity/bad_attention_scores.py": Case("attention", _ATT, "values"),
    "BC202-padding-not-identity/good_attention_scores_where.py": Case("attention", _ATT, "values"),
    # BC301 floor-trip-count
    "BC301-floor-trip-count/bad_gemm_floor_k.py": Case("gemm", _TG, "values"),
    "BC301-floor-trip-count/bad_rowsum_floor_range.py": Case("rowsum", _ROW, "values"),
    "BC301-floor-trip-count/bad_sum_while.py": Case("sum1d", _T1, "values"),
    "BC301-floor-trip-count/good_gemm_cdiv_k.py": Case("gemm", _TG, "values"),
    "BC301-floor-trip-count/good_rowsum_assert.py": Case(
        "rowsum", _ROW, "values",
        Contract("host asserts n_cols % BLOCK == 0", {"N": "BLOCK"})),
    # BC302 floor-grid
    "BC302-floor-grid/bad_grid_tuple.py": Case("map1d", _T1, "unwritten"),
    "BC302-floor-grid/bad_grid_lambda.py": Case("map1d", _T1, "unwritten"),
    "BC302-floor-grid/bad_grid_2d.py": Case("map2d", _T2, "unwritten"),
    "BC302-floor-grid/good_grid_cdiv.py": Case("map1d", _T1, "unwritten"),
    "BC302-floor-grid/good_grid_assert.py": Case(
        "map1d", _T1, "unwritten", Contract("host asserts n % BLOCK == 0", {"n": "BLOCK"})),
}
