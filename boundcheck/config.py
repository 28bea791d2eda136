"""Configuration from ``[tool.boundcheck]`` in ``pyproject.toml`` or from ``boundcheck.toml``,
found by walking up from the first checked path; command-line flags override it.

Rule selection is layered as ruff layers it: the file's ``select``/``extend-select``/``ignore``
first, then the command line's, where a later ``select`` starts afresh and a later
``extend-select`` can re-enable what an earlier ``ignore`` dropped.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from boundcheck.settings import Settings, code_matches

_LIST_KEYS = {"select", "ignore", "extend-select", "exclude", "extend-exclude", "cuda-args"}
_CODE_KEYS = {"select", "ignore", "extend-select"}
_KEYS = _LIST_KEYS | {"per-file-ignores", "preview", "respect-gitignore", "jobs"}


class ConfigError(Exception):
    """A configuration file that cannot be used; the message names the file and the key."""


def _boundcheck_table(path: Path) -> dict[str, Any] | None:
    """The ``[tool.boundcheck]`` table of a ``pyproject.toml``, or None when it has none."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read as TOML: {exc}") from None
    tool = data.get("tool")
    if not isinstance(tool, dict) or "boundcheck" not in tool:
        return None
    table = tool["boundcheck"]
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.boundcheck` must be a table, not {table!r}")
    return table


def find_config(paths: list[str]) -> Path | None:
    """The nearest ``boundcheck.toml``, or ``pyproject.toml`` with a ``[tool.boundcheck]`` table;
    a directory's ``boundcheck.toml`` wins over its ``pyproject.toml``."""
    start = Path(paths[0]).resolve() if paths else Path.cwd().resolve()
    for directory in [start, *start.parents] if start.is_dir() else start.parents:
        candidate = directory / "boundcheck.toml"
        if candidate.is_file():
            return candidate
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "boundcheck" in candidate.read_text(encoding="utf-8", errors="replace") \
                and _boundcheck_table(candidate) is not None:
            return candidate
    return None


def load(paths: list[str], explicit: Path | None = None) -> Settings:
    path = explicit or find_config(paths)
    if path is None:
        return Settings()
    if path.name == "pyproject.toml":
        table = _boundcheck_table(path)
        return from_table(table or {}, path, prefix="tool.boundcheck.")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read as TOML: {exc}") from None
    return from_table(data, path)


def from_table(table: dict[str, Any], path: Path, prefix: str = "") -> Settings:
    """Settings from a configuration table; the first bad key or value is a :class:`ConfigError`."""
    settings = Settings()
    for key, value in table.items():
        where = f"{path}: `{prefix}{key}`"
        if key not in _KEYS:
            close = difflib.get_close_matches(key, sorted(_KEYS), n=1)
            hint = f"did you mean `{close[0]}`?" if close else f"known keys: {', '.join(sorted(_KEYS))}"
            raise ConfigError(f"{where} is not a boundcheck setting; {hint}")
        if key in _LIST_KEYS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{where} must be a list of strings, not {value!r}")
            if key in _CODE_KEYS:
                _check_codes(where, value)
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where} must be a table of glob = [codes], not {value!r}")
            for glob, codes in value.items():
                if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                    raise ConfigError(f"{where} entry {glob!r} must be a list of rule codes, not {codes!r}")
                _check_codes(f"{where} entry {glob!r}", codes)
        elif key in {"preview", "respect-gitignore"} and not isinstance(value, bool):
            raise ConfigError(f"{where} must be true or false, not {value!r}")
        elif key == "jobs" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise ConfigError(f"{where} must be a whole number >= 0, not {value!r}")
        setattr(settings, key.replace("-", "_"), value)
    return settings


def _check_codes(where: str, codes: list[str]) -> None:
    from boundcheck.registry import all_rules

    known = all_rules()
    for code in codes:
        if not any(code_matches(rule, code) for rule in known):
            raise ConfigError(f"{where} has `{code}`, which is no rule code or prefix (BC1, BC101, ALL)")


def merge(base: Settings, cli: Settings, **scalars: Any) -> Settings:
    """The file's settings with the command line's on top.

    Selection is resolved to explicit codes (see the module docstring). ``exclude`` given on the
    command line replaces the file's; ``cuda-args`` and ``extend-exclude`` add to it.
    """
    updates: dict[str, Any] = {}
    for name, value in scalars.items():
        if value is not None and not (name == "jobs" and value == 0):
            updates[name] = value
    for f in fields(Settings):
        value = getattr(cli, f.name)
        if f.name in {"cuda_args", "extend_exclude"}:
            updates[f.name] = [*getattr(base, f.name), *value]
        elif isinstance(value, list) and value and f.name not in {"select", "ignore", "extend_select"}:
            updates[f.name] = value
    preview = updates.get("preview", base.preview)
    if any((base.select, base.ignore, base.extend_select, cli.select, cli.ignore, cli.extend_select)):
        chosen = resolve_selection([base, cli], preview)
        updates.update(select=chosen, ignore=[] if chosen else ["ALL"], extend_select=[])
    return replace(base, **updates)


def resolve_selection(layers: list[Settings], preview: bool) -> list[str]:
    """The rule codes chosen by applying each layer's select, extend-select and ignore in turn.

    A preview rule is chosen by a prefix only in preview mode; naming its full code chooses it.
    """
    from boundcheck.registry import all_rules

    rules = all_rules()

    def matching(selectors: list[str]) -> set[str]:
        return {code for code, cls in rules.items() for s in selectors
                if code_matches(code, s) and (not cls.preview or preview or s == code)}

    chosen = {code for code, cls in rules.items() if not cls.preview or preview}
    for layer in layers:
        if layer.select:
            chosen = matching(layer.select)
        chosen |= matching(layer.extend_select)
        chosen -= {code for code in rules for s in layer.ignore if code_matches(code, s)}
    return sorted(chosen)
