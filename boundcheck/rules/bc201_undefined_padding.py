from collections.abc import Iterator

from boundcheck.coverage import harmful_uses, masked_identity_advice, padding_places, product_advice
from boundcheck.findings import Edit, Finding, Fix
from boundcheck.model import Access, Kernel, Module, Use, format_value
from boundcheck.registry import Rule


class UndefinedPadding(Rule):
    """Out-of-bounds lanes keep undefined or stale values that reach a reduction."""

    code = "BC201"
    name = "undefined-padding"

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        for access in kernel.accesses:
            pad = access.padding
            if pad is None or not (pad.undefined or pad.stale):
                continue
            uses = harmful_uses(kernel, access)
            if not uses:
                continue
            use = uses[0]
            if pad.stale:
                message = (
                    f"`{access.buffer}` is filled only where the guard holds: slots outside it keep"
                    f" stale shared-memory values from the previous tile, which reach"
                    f" {use.reduction.value}; write the identity "
                    f"({format_value(use.reduction.identity)}) in the else branch"
                )
            elif use.padding.product_at is not None:
                message = (
                    f"masked load of `{access.buffer}` has no `other=`: masked lanes are undefined"
                    f" (zero on current backends), and the dot at line {use.padding.product_at.line}"
                    f" makes them whole rows or columns of its product, which reach"
                    f" {use.reduction.value}, whose identity is {format_value(use.reduction.identity)};"
                    f" {product_advice(use)}"
                )
            else:
                message = (
                    f"masked load of `{access.buffer}` has no `other=`: masked lanes are undefined"
                    f" (zero on current backends), which is not the identity of"
                    f" {_chain(use)}; "
                    + (masked_identity_advice(use, module.language) if use.via else f"pass `other={_literal(use)}`")
                )
            yield self.finding(module, access.span, message, kernel, fix=_fix(access, use),
                               related=padding_places(use), access=access)


def _chain(use: Use) -> str:
    return " then ".join([*use.via, use.reduction.value])


def _literal(use: Use) -> str:
    v = use.reduction.identity
    return {float("-inf"): 'float("-inf")', float("inf"): 'float("inf")'}.get(v, repr(v))


def _fix(access: Access, use: Use) -> Fix | None:
    if access.other_at is None or use.via:
        return None
    return Fix(f"pass `other={_literal(use)}`", (Edit(access.other_at, f", other={_literal(use)}"),))
