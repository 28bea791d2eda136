"""``primaryLocationLineHash`` exactly as GitHub's upload action computes it (github/codeql-action,
``src/fingerprints.ts``), so alerts keep their identity whether or not the action re-hashes.

The hash of a line is a rolling polynomial hash (base 37, 64-bit wrap-around) over the first 100
characters from the line's start, ignoring spaces and tabs, with every line ending read as ``\\n``,
the end of the file as 65535 and then zeros. Characters are UTF-16 code units (JavaScript strings).
Identical hashes are told apart by their occurrence count: ``<hex>:<n>``.
"""

from __future__ import annotations

from pathlib import Path

_BLOCK = 100
_MOD = 37
_MASK = (1 << 64) - 1
_FIRST_MOD = pow(_MOD, _BLOCK, 1 << 64)
_EOF = 0xFFFF
_TAB, _SPACE, _LF, _CR = 9, 32, 10, 13


def _code_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", errors="surrogatepass")
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def line_hashes(text: str) -> list[str]:
    """The hash of every line of ``text``, first line first (a trailing newline opens one more line)."""
    window = [0] * _BLOCK
    line_at = [-1] * _BLOCK  # the line number starting at each window slot, or -1
    out: list[str] = []
    counts: dict[str, int] = {}
    raw = index = line = 0
    line_start, prev_cr = True, False

    def emit() -> None:
        value = format(raw, "x")
        counts[value] = counts.get(value, 0) + 1
        out.append(f"{value}:{counts[value]}")
        line_at[index] = -1

    def update(current: int) -> None:
        nonlocal raw, index
        begin = window[index]
        window[index] = current
        raw = (_MOD * raw + current - _FIRST_MOD * begin) & _MASK
        index = (index + 1) % _BLOCK

    def process(current: int) -> None:
        nonlocal line, line_start, prev_cr
        if current in (_SPACE, _TAB) or (prev_cr and current == _LF):
            prev_cr = False
            return
        if current == _CR:
            current, prev_cr = _LF, True
        else:
            prev_cr = False
        if line_at[index] != -1:
            emit()
        if line_start:
            line_start = False
            line += 1
            line_at[index] = line
        if current == _LF:
            line_start = True
        update(current)

    for unit in _code_units(text):
        process(unit)
    process(_EOF)
    for _ in range(_BLOCK):
        if line_at[index] != -1:
            emit()
        update(0)
    return out


def file_line_hashes(path: str | Path) -> list[str]:
    """As the action reads the file: UTF-8 with replacement characters, line endings untouched."""
    return line_hashes(Path(path).read_bytes().decode("utf-8", errors="replace"))
