"""What a run checks and how: rule selection, excludes and CUDA parse flags."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Settings:
    select: list[str] = field(default_factory=list)  # empty: every default rule
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)  # glob -> codes
    exclude: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)
    preview: bool = False
    cuda_args: list[str] = field(default_factory=list)  # extra -D/-I flags for libclang
    respect_gitignore: bool = True
    jobs: int = 0  # 0: one process per core when there are enough files


def code_matches(code: str, selector: str) -> bool:
    """``BC1`` selects BC101…BC199, ``ALL`` selects everything (ruff's prefix grammar)."""
    return selector == "ALL" or code.startswith(selector)
