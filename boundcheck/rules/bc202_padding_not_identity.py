import math
from collections.abc import Iterator

from boundcheck.findings import Finding
from boundcheck.model import Access, Kernel, Module, Reduction, Use, format_value
from boundcheck.registry import Rule


def harmful_uses(access: Access) -> list[Use]:
    """Reductions that receive padding other than their identity along a guarded axis."""
    guarded_axes = {b.axis for b in access.guards}
    out = []
    for use in access.uses:
        if use.padding.value is None and not use.padding.stale:
            continue
        if use.axes is not None and None not in guarded_axes and not guarded_axes & set(use.axes):
            continue
        if use.padding.stale or not _same(use.padding.value, use.reduction.identity):
            out.append(use)
    return out


def _same(a: float | None, b: float) -> bool:
    return a is not None and (a == b or (math.isnan(a) and math.isnan(b)))


class PaddingNotIdentity(Rule):
    """The padding of out-of-bounds lanes is not the identity of the reduction it feeds."""

    code = "BC202"
    name = "padding-not-identity"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for access in kernel.accesses:
            pad = access.padding
            if pad is None or pad.undefined or pad.stale or pad.value is None:
                continue
            uses = harmful_uses(access)
            if not uses:
                continue
            use = uses[0]
            via = "".join(f" becomes {format_value(use.padding.value)} after {v} and" for v in use.via[-1:])
            advice = _advice(use.reduction)
            yield self.finding(
                module, access.span,
                f"out-of-bounds lanes of `{access.buffer}` are padded with {format_value(pad.value)},"
                f" which{via} feeds {use.reduction.value}, whose identity is"
                f" {format_value(use.reduction.identity)}: the padding changes the result; {advice}",
                kernel,
            )


def _advice(reduction: Reduction) -> str:
    if reduction in (Reduction.MAX, Reduction.ARGMAX):
        return ("pad with -inf, and if a row can be fully masked, guard the normalisation"
                " (`tl.where(m == -inf, 0, x - m)`) so exp(-inf - -inf) cannot give NaN")
    return f"pad with {format_value(reduction.identity)}"
