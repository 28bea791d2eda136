"""The ``__device__`` helpers a kernel calls, resolved per call: a name can have several bodies
(overloads, explicit specializations such as ``copy_vector<__half, 4>`` and ``copy_vector<float,
4>``), and the body walked must be the one the call runs, whose parameter types give the width of
the vector it moves."""

from __future__ import annotations

import clang.cindex as ci

from boundcheck.frontends.cuda_expr import callee, children
from boundcheck.frontends.cuda_parse import integral_arguments, is_device, is_kernel, literal_arguments


class Helpers(dict[str, ci.Cursor]):
    """Helper definitions of the main file by name (the device one where a host function shares
    it), and every definition of each name for :meth:`of`."""

    def __init__(self, fns: list[ci.Cursor], elsewhere: dict[str, object] | None = None) -> None:
        super().__init__()
        self.overloads: dict[str, list[ci.Cursor]] = {}
        self.elsewhere = elsewhere or {}  # summaries of helpers other files of the run define
        self.wanted: set[str] = set()  # helpers with no body here whose summary was asked for
        for f in fns:  # a host launcher may share its device helper's name (`adamw_update`): keep the helper
            if is_kernel(f):
                continue
            self.overloads.setdefault(f.spelling, []).append(f)
            if f.spelling not in self or is_device(f):
                self[f.spelling] = f

    def summary(self, name: str) -> object | None:
        """What another file of the run read the body of helper ``name`` to do (None until the
        engine hands that reading over; the ask is remembered so it can)."""
        self.wanted.add(name)
        return self.elsewhere.get(name)

    def of(self, call: ci.Cursor) -> ci.Cursor | None:
        """The definition ``call`` runs: the one libclang resolved it to, where that is a helper of
        this file; in a template, where the call's types are still open, the specialization for
        the same integer arguments (``copy_vector<input_t, 4>`` runs a 4-wide body whatever the
        type); else the helper of that name."""
        name = callee(call)
        found = self.overloads.get(name, [])
        if len(found) < 2:
            return self.get(name)
        ref = call.referenced
        target = ref.get_definition() if ref is not None else None
        if target is not None:
            return next((f for f in found if f == target), self.get(name))
        wanted = _integer_arguments(call)
        if wanted:
            for f in found:
                given = integral_arguments(f)  # an explicit specialization's, by position
                if all(given.get(p) == v for p, v in wanted.items()):
                    return f
        return self.get(name)


def _integer_arguments(call: ci.Cursor) -> dict[int, int]:
    """The integer literals among a call's explicit template arguments, by position
    (``f<T, 4>(…)``: ``{1: 4}``)."""
    kids = children(call)
    tokens = [t.spelling for t in kids[0].get_tokens()] if kids else []
    return literal_arguments(tokens[tokens.index("<") + 1:]) if "<" in tokens else {}
