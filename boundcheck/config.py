"""Configuration from ``[tool.boundcheck]`` in ``pyproject.toml`` or from ``boundcheck.toml``,
found by walking up from the checked paths; command-line flags override it."""

from __future__ import annotations

import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from boundcheck.settings import Settings

_LIST_KEYS = {"select", "ignore", "extend-select", "exclude", "extend-exclude", "cuda-args"}
_KEYS = _LIST_KEYS | {"per-file-ignores", "preview", "respect-gitignore", "jobs"}


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the key."""


def find_config(paths: list[str]) -> Path | None:
    """The nearest ``boundcheck.toml``, or ``pyproject.toml`` with a ``[tool.boundcheck]`` table."""
    start = Path(paths[0]).resolve() if paths else Path.cwd()
    for directory in [start, *start.parents] if start.is_dir() else start.parents:
        candidate = directory / "boundcheck.toml"
        if candidate.is_file():
            return candidate
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "[tool.boundcheck" in candidate.read_text(errors="replace"):
            return candidate
    return None


def load(paths: list[str], explicit: Path | None = None) -> Settings:
    path = explicit or find_config(paths)
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    table = data.get("tool", {}).get("boundcheck", {}) if path.name == "pyproject.toml" else data
    return from_table(table, path)


def from_table(table: dict[str, Any], path: Path) -> Settings:
    settings = Settings()
    for key, value in table.items():
        if key not in _KEYS:
            raise ConfigError(f"{path}: unknown key `{key}` (known: {', '.join(sorted(_KEYS))})")
        attr = key.replace("-", "_")
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: `{key}` must be a list of strings, not {value!r}")
            if key in {"select", "ignore", "extend-select"}:
                _check_codes(path, key, value)
        elif key == "per-file-ignores":
            if not isinstance(value, dict) or not all(
                isinstance(v, list) and all(isinstance(c, str) for c in v) for v in value.values()
            ):
                raise ConfigError(f"{path}: `per-file-ignores` must map globs to lists of codes")
            for codes in value.values():
                _check_codes(path, key, codes)
        elif key in {"preview", "respect-gitignore"} and not isinstance(value, bool):
            raise ConfigError(f"{path}: `{key}` must be true or false, not {value!r}")
        elif key == "jobs" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise ConfigError(f"{path}: `jobs` must be a whole number >= 0, not {value!r}")
        setattr(settings, attr, value)
    return settings


def _check_codes(path: Path, key: str, codes: list[str]) -> None:
    for code in codes:
        if code != "ALL" and not (code.startswith("BC") and code[2:].isdigit()):
            raise ConfigError(f"{path}: `{key}` has `{code}`, which is not a rule code or prefix (BC1, BC101, ALL)")


def merge(base: Settings, cli: Settings, **scalars: Any) -> Settings:
    """Command-line values replace file values where given; lists given on both are the CLI's."""
    updates: dict[str, Any] = {}
    for f in fields(Settings):
        value = getattr(cli, f.name)
        if isinstance(value, list) and value:
            updates[f.name] = value
    for name, value in scalars.items():
        if value is not None and not (name == "jobs" and value == 0):
            updates[name] = value
    return replace(base, **updates)
