"""Human output in ruff's full style: location, code, message, then the line with a caret."""

from __future__ import annotations

from pathlib import Path

from boundcheck.findings import Finding


def _line(path: str, number: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[number - 1] if 0 < number <= len(lines) else ""


def render(findings: list[Finding], show_source: bool = True, color: bool = False) -> str:
    out: list[str] = []
    cache: dict[str, list[str]] = {}
    bold, red, cyan, reset = ("\033[1m", "\033[31m", "\033[36m", "\033[0m") if color else ("",) * 4
    shown = [f for f in findings if f.suppressed_by is None]
    for f in shown:
        out.append(f"{bold}{f.path}:{f.span.line}:{f.span.col + 1}:{reset} {red}{bold}{f.code}{reset}"
                   f" [{f.name}] {f.message}")
        if show_source:
            text = _line(f.path, f.span.line, cache).expandtabs(1)
            if text:
                width = len(str(f.span.line))
                end = f.span.end_col if f.span.end_line == f.span.line else len(text)
                carets = "^" * max(1, min(end, len(text)) - f.span.col)
                out.append(f"{cyan}{' ' * width} |{reset}")
                out.append(f"{cyan}{f.span.line} |{reset} {text}")
                out.append(f"{cyan}{' ' * width} |{reset} {' ' * f.span.col}{red}{carets} {f.code}{reset}")
                for span, note in f.related:  # the places the finding involves beside its own line
                    out.append(f"{cyan}{' ' * width} = {reset}note: line {span.line}: {note}")
                if f.fix:
                    kind = "fix" if f.fix.safe else "unsafe fix"
                    out.append(f"{cyan}{' ' * width} = {reset}{kind}: {f.fix.message}")
            out.append("")
    fixable = sum(1 for f in shown if f.fix and f.fix.safe)
    hidden = sum(1 for f in shown if f.fix and not f.fix.safe)
    if shown:
        out.append(f"Found {len(shown)} finding{'s' if len(shown) != 1 else ''}."
                   + (f" {fixable} fixable with `--fix`." if fixable else "")
                   + (f" ({hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the"
                      " `--unsafe-fixes` option.)" if hidden else ""))
    else:
        out.append("All checks passed!")
    suppressed = len(findings) - len(shown)
    if suppressed:
        out.append(f"({suppressed} suppressed)")
    return "\n".join(out)
