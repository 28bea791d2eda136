"""Which files to check: walk the given paths, honour ``.gitignore`` and excludes, and decide
each file's language from its name, so the frontends see only what they can read."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path

import pathspec

from boundcheck.model import Language

PYTHON_SUFFIXES = {".py", ".pyi"}
CUDA_SUFFIXES = {".cu", ".cuh"}
CXX_SUFFIXES = {".h", ".hpp", ".hh", ".cpp", ".cc", ".cxx", ".inl", ".inc"}
DEFAULT_EXCLUDE = [".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules", ".tox",
                   ".mypy_cache", ".ruff_cache", "build", "dist", "site-packages"]


def language_of(path: Path) -> Language | None:
    suffix = path.suffix.lower()
    if suffix in PYTHON_SUFFIXES:
        return Language.TRITON
    if suffix in CUDA_SUFFIXES or suffix in CXX_SUFFIXES:
        return Language.CUDA
    return None


def _excluded(path: Path, patterns: list[str]) -> bool:
    text = path.as_posix()
    return any(
        fnmatch.fnmatch(path.name, p) or fnmatch.fnmatch(text, p) or fnmatch.fnmatch(text, f"*/{p}")
        for p in patterns
    )


class _GitIgnore:
    """The ``.gitignore`` files from the repository root down to each directory walked."""

    def __init__(self) -> None:
        self._specs: dict[Path, pathspec.PathSpec | None] = {}

    def _spec(self, directory: Path) -> pathspec.PathSpec | None:
        if directory not in self._specs:
            f = directory / ".gitignore"
            self._specs[directory] = (
                pathspec.PathSpec.from_lines("gitwildmatch", f.read_text(errors="replace").splitlines())
                if f.is_file() else None
            )
        return self._specs[directory]

    def ignored(self, path: Path, is_dir: bool) -> bool:
        for parent in path.parents:
            spec = self._spec(parent)
            if spec is not None:
                rel = path.relative_to(parent).as_posix() + ("/" if is_dir else "")
                if spec.match_file(rel):
                    return True
            if (parent / ".git").exists():
                break
        return False


def discover(paths: list[str], exclude: list[str], respect_gitignore: bool = True) -> Iterator[tuple[Path, Language]]:
    """Files under ``paths`` in a stable order. Files named explicitly are always checked
    (as ruff does), unless excluded."""
    patterns = DEFAULT_EXCLUDE + exclude
    gitignore = _GitIgnore() if respect_gitignore else None
    seen: set[Path] = set()
    for raw in paths:
        root = Path(raw)
        if root.is_file():
            lang = language_of(root)
            if lang and not _excluded(root, exclude) and root not in seen:
                seen.add(root)
                yield root, lang
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            here = Path(dirpath)
            dirnames[:] = sorted(
                d for d in dirnames
                if not _excluded(here / d, patterns)
                and not (gitignore and gitignore.ignored((here / d).absolute(), True))
            )
            for name in sorted(filenames):
                path = here / name
                lang = language_of(path)
                if lang is None or path in seen or _excluded(path, patterns):
                    continue
                if gitignore and gitignore.ignored(path.absolute(), False):
                    continue
                seen.add(path)
                yield path, lang
