"""Why a mutant was missed, told from the operator and the shape of the site.

The benchmark's operators only make mutants that are the rule's bug (``padflow`` and the site
checks in the mutators), so a miss is an analyzer gap unless a rule here says otherwise. Each
rule looks at the mutant's record and the original source lines around it; the first that
matches names the reason. Reasons were written from misses read by hand (the run notes list the
samples); a miss no rule recognises is reported as unclassified, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

Lines = list[str]


@dataclass(frozen=True)
class Site:
    """A missed mutant and the original text around its change."""

    record: dict
    lines: Lines  # the whole original file

    @property
    def line(self) -> str:
        i = self.record["line"] - 1
        return self.lines[i] if 0 <= i < len(self.lines) else ""

    def window(self, before: int = 0, after: int = 3) -> str:
        i = self.record["line"] - 1
        return "\n".join(self.lines[max(0, i - before):i + after + 1])

    @property
    def description(self) -> str:
        return self.record["description"]

    def kernel_header(self) -> str:
        """The ``def``/``__global__`` header text above the site (up to its closing paren)."""
        i = self.record["line"] - 1
        while i >= 0 and not re.match(r"\s*(def |__global__|template|__device__)", self.lines[i]):
            i -= 1
        return "\n".join(self.lines[max(i, 0):max(i, 0) + 30])


def constexpr_extent(site: Site) -> str | None:
    """The extent of a floored ``cdiv(E, B)``, when E is a ``tl.constexpr`` parameter."""
    m = re.search(r"`(?:\w+\.)*cdiv\((\w+),", site.description)
    if m and re.search(rf"\b{m.group(1)}\s*:\s*tl\.constexpr", site.kernel_header()):
        return m.group(1)
    return None


def whole_tile_index(site: Site) -> bool:
    """The masked index is ``tl.arange(0, B)`` with no program or loop offset."""
    text = site.window(0, 6)
    for name in re.findall(r"(\w+)(?:\[[^\]]*\])?\s*<", text):
        for ln in site.lines[:site.record["line"]]:
            if re.match(rf"\s*{name}\s*=\s*tl\.arange\(0,\s*\w+\)\s*$", ln):
                return True
    return False


def not_an_extent(site: Site) -> bool:
    """``pid_n > 0``, ``p < global_pid``, ``start < end``: limits that are no tensor extent."""
    m = re.search(r"^`(.*?)\s*(<|>)\s*(.*?)` became", site.description)
    if not m:
        return False
    left, op, right = m.group(1).strip("( )"), m.group(2), m.group(3).strip("( )")
    limit = right if op == "<" else left
    if op == ">" and re.fullmatch(r"-?\d+", right):
        return True  # a lower bound: `i > 0`
    return re.search(r"pid|program|start|\bend\b", limit) is not None


def moving_limit(site: Site) -> bool:
    """A guard ``i < d`` whose limit a loop above steps (``for (d = n / 2; d > 0; d >>= 1)``)."""
    m = re.search(r"`[^`]*?(?:<|>=|<=|>)\s*(\w+)`", site.description)
    if not m:
        return False
    limit = m.group(1)
    above = site.window(15, 0)
    return re.search(rf"for\s*\([^;]*;[^;]*;[^)]*\b{limit}\s*(>>=|<<=|\*=|/=|\+=|-=)", above) is not None \
        or re.search(rf"\b{limit}\s*(>>=|<<=|\*=|/=)", above) is not None


RULES: list[tuple[str, Callable[[Site], bool]]] = [
    # Triton
    ("not a bug of this rule: the comparison is no extent bound (a lower bound, a program id, a loop position)",
     lambda s: s.record["language"] == "triton" and s.record["operator"] == "off-by-one" and not_an_extent(s)),
    ("analyzer gap: -inf padding reaching a tl.dot along the padded axis",
     lambda s: s.record["operator"] == "padding-zero-to-neginf" and "the dot" in s.description),
    ("analyzer gap: -inf padding reaching a tl.sum along the padded axis",
     lambda s: s.record["operator"] == "padding-zero-to-neginf" and "the sum" in s.description),
    ("analyzer gap: 0 padding reaching a max (online softmax with tl.maximum, or a helper)",
     lambda s: s.record["operator"] in ("padding-neginf-to-zero", "drop-other") and s.record["language"] == "triton"),
    ("analyzer gap: the extent is a tl.constexpr parameter (not a multiple of the tile still skips the tail)",
     lambda s: s.record["operator"] == "floor-trip" and constexpr_extent(s) is not None),
    ("analyzer gap: trip count held in a variable (NT = tl.cdiv(T, BT))",
     lambda s: s.record["operator"] == "floor-trip" and s.record["language"] == "triton"
     and re.match(r"\s*\w+\s*=", s.line) is not None),
    ("analyzer gap: the ceil-div sets a loop's start or bound with other arithmetic (reverse or offset loop)",
     lambda s: s.record["operator"] == "floor-trip" and s.record["language"] == "triton"),
    ("analyzer gap: grid from autotune meta[...] in a grid function",
     lambda s: s.record["operator"] == "floor-grid" and "meta[" in s.description),
    ("analyzer gap: grid built in a variable or wrapper and launched elsewhere",
     lambda s: s.record["operator"] == "floor-grid" and s.record["language"] == "triton"),
    ("analyzer gap: block-pointer access whose shape the analyzer cannot see as tiled",
     lambda s: s.record["operator"] == "drop-boundary-check"),
    ("analyzer gap: whole-dimension tile (tl.arange(0, B), no offset) bounded only by this mask",
     lambda s: s.record["language"] == "triton" and s.record["operator"] in ("drop-mask", "off-by-one")
     and whole_tile_index(s)),
    ("analyzer gap: the dropped conjunct is a named row/column mask (m_t[:, None]), not a comparison",
     lambda s: s.record["operator"] in ("drop-k-term", "drop-mask-dim")
     and re.search(r"dropped `\w+\[[:, None]+\]`", s.description) is not None),
    ("analyzer gap: bound in a mask assigned to a name, used by the access later",
     lambda s: s.record["language"] == "triton" and s.record["operator"] in ("off-by-one", "drop-mask-dim",
                                                                            "drop-k-term")
     and re.match(r"\s*\w+\s*=", s.line) is not None and "tl.load" not in s.line and "tl.store" not in s.line),
    ("analyzer gap: access in a loop over tiles (index offset by the loop variable)",
     lambda s: s.record["language"] == "triton" and s.record["operator"] in ("drop-mask", "off-by-one")
     and re.search(r"^\s*for \w+ in (tl\.)?(static_)?range\(", s.window(12, 0), re.M) is not None),
    ("analyzer gap: program-tiled index (offset by tl.program_id)",
     lambda s: s.record["language"] == "triton" and s.record["operator"] in ("drop-mask", "off-by-one")
     and "program_id" in s.kernel_header() + "\n".join(s.lines[:s.record["line"]][-60:])),
    # CUDA
    ("not a bug of this rule: the limit moves with a tree-reduction / scan loop (an active-thread test,"
     " not an extent)",
     lambda s: s.record["language"] == "cuda" and moving_limit(s)),
    ("analyzer gap: accesses indexed by a quotient / remainder of the guarded index (idx / C, idx % C)",
     lambda s: s.record["language"] == "cuda" and s.record["operator"] in ("drop-guard", "thread-index-guard",
                                                                          "off-by-one")
     and re.search(r"\b\w+\s*/\s*[A-Za-z_]\w*|%\s*[A-Za-z_]", s.window(0, 4)) is not None
     and "/ 2" not in s.line),
    ("analyzer gap: guard on a block-local index or count (threadIdx.x < len)",
     lambda s: s.record["language"] == "cuda" and re.search(r"\b(threadIdx\.[xyz]|tid|tx|ty)\s*<", s.line)
     is not None),
    ("analyzer gap: guard on a shifted index `(i + blockSize) < n` (second element per thread)",
     lambda s: s.record["language"] == "cuda" and re.search(r"\(\s*\w+\s*\+\s*[A-Za-z_]\w*\s*\)\s*<", s.line)
     is not None),
    ("analyzer gap: index built from warp / cooperative-groups ids (one row per warp)",
     lambda s: s.record["language"] == "cuda" and re.search(r"meta_group|warp_id|warp\.|lane_id|num_warps",
                                                           s.window(12, 0)) is not None
     and s.record["operator"] in ("drop-guard", "off-by-one", "thread-index-guard")),
    ("analyzer gap: early exit `if (i >= n) return;` on the tile index",
     lambda s: s.record["language"] == "cuda" and ("early exit" in s.description or "return" in s.window(0, 2))
     and s.record["operator"] in ("drop-guard", "off-by-one", "thread-index-guard")),
    ("analyzer gap: bound in a strided loop condition",
     lambda s: s.record["language"] == "cuda" and s.record["operator"] == "off-by-one"
     and re.match(r"\s*for\s*\(", s.line) is not None),
    ("analyzer gap: guard on an offset lane `(idx + k) < N` of a packed access",
     lambda s: s.record["language"] == "cuda" and s.record["operator"] in ("off-by-one", "drop-guard",
                                                                          "thread-index-guard")
     and re.search(r"\(\s*\w+\s*\+\s*\d+\s*\)\s*<", s.line) is not None),
    ("analyzer gap: guard on a block-local index (threadIdx / shared position)",
     lambda s: s.record["language"] == "cuda" and s.record["operator"] == "off-by-one"
     and "threadIdx" in s.line),
    (("by design: the launched kernel strides over its extent by the grid, which silences BC302 (a floored"
      " grid then misses elements only when it launches no block)"),
     lambda s: s.record["operator"] == "floor-grid" and grid_stride_launch(s)),
    ("analyzer gap: grid held in a dim3 variable",
     lambda s: s.record["operator"] == "floor-grid" and "dim3" in s.line),
    ("analyzer gap: grid held in an integer variable (int blocks = ceil_div(n, B))",
     lambda s: s.record["operator"] == "floor-grid" and re.match(r"\s*(const\s+)?(int|auto|size_t|unsigned)\b",
                                                                 s.line) is not None),
    ("analyzer gap: grid computed in the launch of a templated or wrapped kernel",
     lambda s: s.record["operator"] == "floor-grid"),
    ("analyzer gap: pipelined tile loop (starts at 1; the last tile is computed after the loop)",
     lambda s: s.record["operator"] == "floor-trip" and re.search(r"for\s*\(\s*int\s+\w+\s*=\s*1\s*;", s.line)
     is not None),
    ("analyzer gap: trip count held in a variable",
     lambda s: s.record["operator"] == "floor-trip" and re.match(r"\s*(int|const|auto|\w+)\s+\w+\s*=", s.line)
     is not None),
    ("analyzer gap: -FLT_MAX / -INFINITY ternary padding feeding a warp/block max helper",
     lambda s: s.record["operator"] == "padding-neginf-to-zero"),
    ("analyzer gap: ternary halo fill of a shared tile",
     lambda s: s.record["operator"] == "drop-zero-fill"),
    ("analyzer gap: guard whose accesses are reached through a helper or a packed macro",
     lambda s: s.record["language"] == "cuda" and s.record["operator"] in ("drop-guard", "thread-index-guard")),
]


def grid_stride_launch(site: Site) -> bool:
    """The kernel a floored grid launches (or a ``__device__`` helper it calls) steps a loop by a
    stride built from ``gridDim``: every thread walks the extent, whatever the grid size."""
    launch = site.lines[site.record["targets"][-1][0] - 1] if site.record.get("targets") else ""
    m = re.search(r"(\w+)\s*(?:<[^<>]*>)?\s*<<<", launch)
    kernel = _function_text(site.lines, m.group(1), "__global__") if m else ""
    called = set(re.findall(r"\b(\w+)\s*(?:<[^<>()]*>)?\s*\(", kernel))
    text = kernel + "".join(_function_text(site.lines, name, "__device__") for name in called)
    strides = set(re.findall(r"(\w+)\s*=[^;=]*gridDim[^;]*;", text))
    steps = re.findall(r"for\s*\([^;]*;[^;]*;\s*\w+\s*\+=\s*([^)]+)\)", text)
    return any("gridDim" in step or step.strip() in strides for step in steps)


def _function_text(lines: Lines, name: str, qualifier: str) -> str:
    """The text of the function ``name`` declared ``qualifier`` (its header may span lines), up to
    its closing brace at column 0; empty if there is none."""
    for i, line in enumerate(lines):
        head = "\n".join(lines[max(0, i - 2):i + 1])
        if re.search(rf"\b{re.escape(name)}\s*\(", line) and qualifier in head:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("}")), len(lines) - 1)
            return "\n".join(lines[i:end + 1])
    return ""


def reason(record: dict, lines: Lines) -> str:
    """The first matching reason, prefixed by what another rule said when one did."""
    site = Site(record, lines)
    found = next((why for why, test in RULES if test(site)), f"unclassified: {record['operator']}")
    if record["outcome"] == "caught-other":
        codes = sorted({f["code"] for f in record["new_findings"]})
        if codes == [record["rule"]]:
            return f"analyzer gap: {record['rule']} reported, but not on the changed statement's access"
        return f"analyzer gap: reported as {', '.join(codes)} instead of {record['rule']}"
    return found
