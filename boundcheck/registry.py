"""Rules register themselves by subclassing :class:`Rule`; modules under ``boundcheck.rules``
are imported on first use, so adding a rule touches only its own module, page and fixtures."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from typing import ClassVar

from boundcheck.coverage import brief
from boundcheck.findings import Finding, Fix
from boundcheck.model import Access, Kernel, Language, Module, Span

_RULES: dict[str, type[Rule]] = {}
_QUOTED = re.compile(r"`([^`]*)`")  # code quoted in a message (paired from the left)


def _brief(m: re.Match[str]) -> str:
    return f"`{brief(m.group(1))}`"


class Rule:
    """One checklist item. Subclasses set ``code``/``name`` and implement ``check``.

    ``languages`` lists the frontends whose model the rule understands; ``preview`` rules run
    only when selected. The rule's documentation and metadata live in ``rules/<code>-<name>.md``.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    languages: ClassVar[frozenset[Language]] = frozenset(Language)
    preview: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            _RULES[cls.code] = cls

    def check(self, module: Module) -> Iterator[Finding]:
        for kernel in module.kernels:
            if kernel.language in self.languages:
                yield from self.check_kernel(module, kernel)

    def check_kernel(self, module: Module, kernel: Kernel) -> Iterator[Finding]:
        return iter(())

    def finding(
        self, module: Module, span: Span, message: str, kernel: Kernel | None = None,
        fix: Fix | None = None, related: tuple[tuple[Span, str], ...] = (), access: Access | None = None,
    ) -> Finding:
        """A finding at ``span``; one on ``access`` in an inlined helper's body also points at the
        calls it was reached through (a helper called from several places is reported once, with
        each call that makes the access wrong)."""
        calls = tuple((call, "reached through the helper call here") for call in access.calls) if access else ()
        return Finding(
            # one line: code quoted from a multi-line condition keeps its words, not its layout;
            # an expression the analysis built from inlined values is cut to its two ends
            code=self.code, name=self.name, message=_QUOTED.sub(_brief, " ".join(message.split())), path=module.path,
            span=span,
            kernel=kernel.name if kernel else None, fix=fix, related=related + calls,
        )


def all_rules() -> dict[str, type[Rule]]:
    """Every rule class by code, importing ``boundcheck.rules.*`` once."""
    if not _RULES:
        import boundcheck.rules as package

        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{info.name}")
    return dict(sorted(_RULES.items()))
