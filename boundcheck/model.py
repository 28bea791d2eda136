"""The boundary model: what a kernel reads and writes, and what protects each access.

Frontends (Triton via libcst, CUDA via libclang) fill these plain dataclasses; rules read only
them. A frontend that cannot understand an index, a guard or a padding records that
(``Access.opaque``, ``Padding.UNKNOWN``) and rules stay silent rather than guess.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace


class Language(enum.Enum):
    TRITON = "triton"
    CUDA = "cuda"


@dataclass(frozen=True, order=True)
class Span:
    """A source range: 1-based lines, 0-based code-point columns, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int


class AccessKind(enum.Enum):
    READ = "read"
    WRITE = "write"
    ATOMIC = "atomic"


class Space(enum.Enum):
    GLOBAL = "global"
    SHARED = "shared"


class Tiling(enum.Enum):
    """How a dimension's index moves from tile to tile."""

    PROGRAM = "program"  # offset by a program / block id: one tile per program
    LOOP = "loop"  # offset by a loop induction variable or a pointer advanced in a loop
    WHOLE = "whole"  # a single tile spans the dimension (no tile offset)


@dataclass(frozen=True)
class Dim:
    """One tile-varying dimension of an access index.

    ``source`` identifies the lane-varying origin (a ``tl.arange`` call, ``threadIdx.x``); two
    accesses that share a source share the dimension. ``axis`` is the broadcast axis in a
    multi-dimensional Triton tile (None for 1-D or CUDA).
    """

    source: str
    label: str
    tile: str | None
    tiling: Tiling
    axis: int | None = None
    loop: Loop | None = None
    pitches: tuple[str, ...] = ()  # sizes the next-outer dimension steps by (``off_hb * seqlen_q_rounded``)
    contiguous: bool = False  # the lane runs at unit stride: the index's innermost dimension
    extent: str = ""  # the extent the access itself names for the dimension (a block pointer's shape)


@dataclass(frozen=True)
class Bound:
    """One conjunct of the guard that dominates an access, normalised to ``index OP limit``.

    ``op`` is ``<`` or ``<=``; ``limit_slack`` is the constant added to the limit
    (``i < n + 1`` has slack 1). ``local`` marks an index that omits the tile offset of the
    dimension it bounds (``threadIdx.x < n`` for a block-tiled access). ``wrap`` marks an index
    reduced modulo the extent (``offs % M``), in bounds by construction. ``lane_offset`` is the
    constant added to the index (``i + 3 < n`` has 3), which a vector access needs.
    """

    source: str | None
    index: str
    op: str
    limit: str
    limit_is_extent: bool
    span: Span
    limit_slack: int = 0
    lane_offset: int = 0
    local: bool = False
    wrap: bool = False
    axis: int | None = None
    op_span: Span | None = None  # the operator token as written, for the safe fix
    op_text: str = ""
    index_tiled: bool = False  # the bounded index carries a program / loop tile offset
    # the factors of the runtime terms the bounded index adds to the lane that step by no
    # compile-time size (``row_start`` of ``row_start + m_offs``): the walk of a shifted copy
    shift: frozenset[str] = frozenset()
    walk: bool = False  # the condition of a loop that walks this lane (``for (i = lane; i < C; i += 32)``)
    # one side of a disjunction (``if (m >= M && n >= N) return;`` lets m < M || n < N through): it
    # bounds nothing, but says what the author compares, so a comparison there can be off by one
    alternative: bool = False
    # the limit's constant sizes the extent rather than reaching past it: the limit is written as
    # one name (``u < myGLen``, ``myGLen = len + 1``), or is a ceiling (``i < (n - 1) / 32 + 1``)
    sized_limit: bool = False
    # the limit moves with the block or lane (a causal row's length ``blockIdx.x + 1``): it ends a
    # window inside the data, whose elements past it are still there to read
    limit_moves: bool = False

    @property
    def bounds_extent(self) -> bool:
        """A lane compared with a runtime extent as itself (no wrap or clamp, no tile offset): the
        kernel says that lane can pass the extent."""
        return bool(self.source) and self.limit_is_extent and not self.wrap and not self.index_tiled

    @property
    def inclusive(self) -> bool:
        """``i <= n``, or ``i < n + 1``: the index reaches n itself."""
        return self.op == "<=" and not self.limit_slack or self.op == "<" and self.limit_slack == 1

    def on_n_plus_one(self) -> Bound:
        """An inclusive bound on a list or row of n + 1 entries, as the strict bound of that
        length it is (``i <= n`` is ``i < n + 1``)."""
        if self.op == "<=":
            return replace(self, op="<", limit=f"{self.limit} + 1")
        return replace(self, limit=f"{self.limit} + {self.limit_slack}", limit_slack=0)

    @property
    def admits_extent(self) -> bool:
        """True when the bound lets the index reach the extent itself (``i <= n``)."""
        slack = (0 if self.sized_limit else self.limit_slack) + (1 if self.op == "<=" else 0)
        return self.limit_is_extent and not self.wrap and slack - self.lane_offset > 0

    def admits_extent_for(self, width: int) -> bool:
        """The bound lets the index, or the last lane of a ``width``-wide vector whose guard names
        that lane (``i + width - 1 <= n``), reach the extent itself."""
        return self.admits_extent or self.last_lane_off_by_one(width)

    def last_lane_off_by_one(self, width: int) -> bool:
        """A vector guard written for its last lane (``i + 3 < n`` for a float4) but with ``<=``
        or ``+ 1``, so that lane reaches the extent: an off-by-one, not a first-lane guard."""
        slack = self.limit_slack + (1 if self.op == "<=" else 0)
        return width > 1 and self.limit_is_extent and not self.wrap and slack > 0 \
            and self.lane_offset >= width - 1 and self.lane_offset - slack == width - 2


@dataclass(frozen=True)
class Padding:
    """The value that out-of-bounds lanes carry into a computation.

    ``value`` is a float (``-inf``, ``0.0`` …) when known. ``undefined`` marks lanes the program
    never sets: Triton's masked load without ``other=`` (zero on every current backend, hence
    ``value`` 0.0) or a shared-memory slot left ``stale`` from an earlier tile. ``shifted`` names
    the runtime value a padding was moved by on its way to a reduction (``x - mean``): the lanes
    then hold ``pad - mean``, which a sum does not absorb.
    """

    value: float | None
    undefined: bool = False
    stale: bool = False
    shifted: str = ""  # the padding moved by a runtime value (``x - mean``): unknown, and no identity
    shift_at: Span | None = None  # where it was moved
    product_at: Span | None = None  # the ``tl.dot`` that made it whole padded rows or columns of its product

    @property
    def known(self) -> bool:
        return self.stale or self.value is not None

    def describe(self) -> str:
        if self.stale:
            return "stale shared-memory contents"
        if self.undefined:
            return "undefined (zero on current backends)"
        return format_value(self.value)


UNKNOWN_PADDING = Padding(value=None)


def format_value(value: float | None) -> str:
    if value is None:
        return "an unknown value"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    if math.isnan(value):
        return "nan"
    return repr(float(value))


class Reduction(enum.Enum):
    """What consumes padded lanes, with the identity each needs."""

    SUM = "sum"
    DOT = "dot"
    MAX = "max"
    MIN = "min"
    ARGMAX = "argmax"
    ARGMIN = "argmin"
    PROD = "prod"

    @property
    def identity(self) -> float:
        return {
            Reduction.SUM: 0.0,
            Reduction.DOT: 0.0,
            Reduction.MAX: -math.inf,
            Reduction.ARGMAX: -math.inf,
            Reduction.MIN: math.inf,
            Reduction.ARGMIN: math.inf,
            Reduction.PROD: 1.0,
        }[self]


@dataclass(frozen=True)
class Use:
    """A reduction reached by an access's value, with the padding as it arrives there.

    ``via`` names the transformations on the way (``exp``), so a message can say that a zero
    padding became ``exp(0) = 1`` before the sum. ``axes`` lists the broadcast axes reduced
    (None: all, or unknown).
    """

    reduction: Reduction
    padding: Padding
    span: Span
    via: tuple[str, ...] = ()
    axes: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Divisibility:
    """A documented, asserted fact ``extent % tile == 0`` (or ``extent == tile``).

    ``pitch``: the fact is about a padded size (``seqlen_q_rounded = ceil(seqlen_q / 128) * 128``),
    so it makes full only the tiles of a dimension laid out with that size as its row pitch, not
    every dimension that uses the tile. ``between_sizes``: the fact relates two compile-time sizes
    (``static_assert(BN % 4 == 0)``): it makes no runtime extent exact, but says the tile BN is a
    multiple of 4, so ``n % 4 == 0`` says nothing of ``n % BN``. ``spans``: the tile is the extent
    itself, one tile spanning a row along a unit-stride lane (``BLOCK=n_cols``, ``dim3
    threads(dim)``): it says nothing of a dimension cut into tiles, nor makes a floor exact."""

    extent: str
    tile: str
    origin: str  # "static_assert", "heuristics", "host assert", "assume comment", …
    pitch: bool = False
    between_sizes: bool = False
    spans: bool = False


LAUNCH_BINDING = "launch binds the tile to the size"  # the origin of a ``spans`` fact


@dataclass(frozen=True)
class Walk:
    """One walk of a loop's body: the loop of a helper inlined twice is walked twice, once per call
    (a helper's loop over full tiles, then again over the masked tail)."""

    loop: Span  # the loop's header
    ident: int


@dataclass(frozen=True)
class Access:
    kind: AccessKind
    buffer: str
    span: Span
    space: Space
    dims: tuple[Dim, ...]
    guards: tuple[Bound, ...] = ()
    padding: Padding | None = None  # None: no guard, or a write (nothing padded)
    uses: tuple[Use, ...] = ()
    facts: tuple[Divisibility, ...] = ()  # true on this access's path (EVEN_K branches)
    width: int = 1  # elements per lane: 4 for float4
    opaque: bool = False  # the frontend could not read the guard or the index fully
    checked_dims: frozenset[str] = frozenset()  # sources protected by boundary_check / TMA
    text: str = ""
    other_at: Span | None = None  # where ``, other=…`` would go (Triton masked loads)
    # conjuncts of the access's mask that bound no lane dimension of its index: a scalar row or
    # column (``j < max_j``), a lane the index reaches only through loaded data, a test true on
    # every lane (``o_i < BT``). The access is masked, so a dimension left out is a partial guard
    masked_by: tuple[Bound, ...] = ()
    # the walks of the loops the access is made in, outermost first, those around the call of an
    # inlined helper included: a loop's own accesses, wherever their lines are
    within: tuple[Walk, ...] = ()
    # the calls of the inlined helpers the access is made through, outermost first: where a finding
    # in a helper's body comes from (``copy_vector(dst, src + off)`` under a first-lane guard)
    calls: tuple[Span, ...] = ()
    # the factors of the index's runtime terms without a lane (``row_start`` of ``(row_start +
    # m_offs) * stride``): which shifted copies of a lane the access walks
    offset_factors: frozenset[str] = frozenset()
    walked: bool = False  # the width is a group of scalar elements a counted loop walks, not a vector


@dataclass(frozen=True)
class FloorDiv:
    """``extent // tile`` (or ``/`` on integers) where a ceiling division was needed."""

    extent: str
    tile: str
    span: Span
    text: str


@dataclass(frozen=True)
class TileWalk:
    """The extent a loop walks tile by tile, partial tile included: a ceiling trip count
    (``range(cdiv(K, B))``, ``t < (K + T - 1) / T``) or a range stepped by the tile up to the extent
    (``range(0, K, B)``, ``k < K; k += T``: ``stepped``)."""

    extent: str
    tile: str
    stepped: bool = False


@dataclass(frozen=True)
class Loop:
    """A loop over tiles. ``full_tiles``: it stops before the partial tile (``cdiv(K, B) - 1``,
    ``K // B``), so its accesses stay in bounds; ``trip`` is set when that stop is a floor
    division that drops the tail (BC301). ``end_line`` is the last line of its body."""

    span: Span
    var: str | None
    trip: FloorDiv | None = None
    full_tiles: bool = False
    end_line: int = 0
    walks_tail: bool = False  # its trip count is a ceiling (``range(cdiv(K, B))``): it runs the partial tile
    walks: TileWalk | None = None
    # it walks a region of a compile-time size in whole steps (``i0 < 128; i0 += 32``): whole for
    # an index the loop alone moves, not for a region a program id places in a runtime extent
    fixed: bool = False


@dataclass(frozen=True)
class Launch:
    kernel: str
    span: Span
    grid: tuple[FloorDiv, ...]  # grid dimensions that floor a runtime extent by a tile
    facts: tuple[Divisibility, ...] = ()


@dataclass(frozen=True)
class Exit:
    """A boundary ``return``/``continue``/``break`` and the barriers that may follow it."""

    span: Span
    statement: str
    guard: str
    barriers_after: tuple[Span, ...]
    # (extent, tile): when extent % tile == 0 every thread takes the exit at the same step (a
    # loop over whole tiles of the extent), so the barrier is not divergent
    uniform_if: tuple[tuple[str, str], ...] = ()
    barrier_call: str = ""  # the helper or collective the first barrier is made in; "" for the builtin


@dataclass
class Kernel:
    name: str
    language: Language
    span: Span
    accesses: list[Access] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    contracts: list[Divisibility] = field(default_factory=list)
    tail_handled: set[tuple[str, str]] = field(default_factory=set)  # (extent, tile) remainders
    # lane sources of a mask the kernel computes against a runtime extent and never uses
    # (`mask = offs < n` with the load unmasked): the kernel says the lane can pass that extent
    unused_masks: set[str] = field(default_factory=set)


@dataclass
class Module:
    """One analysed file."""

    path: str
    language: Language
    source: str
    kernels: list[Kernel] = field(default_factory=list)
    launches: list[Launch] = field(default_factory=list)
    errors: list[tuple[Span, str]] = field(default_factory=list)  # parse failures (BC001)
    # launches of kernels another file defines (a header this one includes), by that file's real
    # path and the kernel's name: opaque to the rules; the engine hands them to the frontend when
    # it analyses that file, so a kernel is checked under the host facts of every launch in the run
    foreign_launches: dict[tuple[str, str], list[object]] = field(default_factory=dict)
    # host helpers the file defines, by name, as read for other files that only declare them
    # (opaque to the rules), and the helpers it calls with no body where such a reading was asked
    helper_summaries: dict[str, object] = field(default_factory=dict)
    wanted_helpers: set[str] = field(default_factory=set)
    # jit helpers of other files that its kernels inline, by real path and the line of the ``def``:
    # checked here under each caller's values, so that file does not check them as kernels
    inlined_helpers: set[tuple[str, int]] = field(default_factory=set)
    # host functions of the file that reach a launch and that other files may call (a binding's
    # checks before it calls them are read there and handed back by the engine)
    launch_entries: set[str] = field(default_factory=set)

    def lines(self) -> list[str]:
        return self.source.splitlines()
