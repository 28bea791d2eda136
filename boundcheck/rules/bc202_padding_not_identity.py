from collections.abc import Iterator

from boundcheck.coverage import harmful_uses, masked_identity_advice, padding_places, product_advice
from boundcheck.findings import Finding
from boundcheck.model import Kernel, Module, Reduction, format_value
from boundcheck.registry import Rule


class PaddingNotIdentity(Rule):
    """The padding of out-of-bounds lanes is not the identity of the reduction it feeds."""

    code = "BC202"
    name = "padding-not-identity"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for access in kernel.accesses:
            pad = access.padding
            if pad is None or pad.undefined or pad.stale or pad.value is None:
                continue
            uses = harmful_uses(kernel, access)
            if not uses:
                continue
            use = uses[0]
            shift = use.padding.shifted
            if shift:
                via = f" the kernel shifts by `{shift}` (they hold {format_value(pad.value)} - {shift}) and then"
                advice = f"mask again after the shift (`tl.where(mask, x - {shift}, {format_value(use.reduction.identity)})`)"
            elif use.padding.product_at is not None:
                via = (f" the dot at line {use.padding.product_at.line} makes whole rows or columns of its product"
                       f" ({format_value(use.padding.value)} there) and")
                advice = product_advice(use)
            else:
                via = "".join(f" becomes {format_value(use.padding.value)} after {v} and" for v in use.via[-1:])
                advice = masked_identity_advice(use, module.language) if use.via else _advice(use.reduction)
            yield self.finding(
                module, access.span,
                f"out-of-bounds lanes of `{access.buffer}` are padded with {format_value(pad.value)},"
                f" which{via} feeds {use.reduction.value}, whose identity is"
                f" {format_value(use.reduction.identity)}: the padding changes the result; {advice}",
                kernel, related=padding_places(use), access=access,
            )


def _advice(reduction: Reduction) -> str:
    if reduction in (Reduction.MAX, Reduction.ARGMAX):
        return ("pad with -inf, and if a row can be fully masked, guard the normalisation"
                " (`tl.where(m == -inf, 0, x - m)`) so exp(-inf - -inf) cannot give NaN")
    return f"pad with {format_value(reduction.identity)}"
