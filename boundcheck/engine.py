"""One run: discover files, parse each with its frontend, apply the selected rules, then
suppressions. Files are independent, so large runs fan out over processes."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from boundcheck import suppressions
from boundcheck.discovery import discover
from boundcheck.findings import Finding
from boundcheck.model import Language, Module, Span
from boundcheck.registry import Rule, all_rules
from boundcheck.settings import Settings, code_matches

PARALLEL_THRESHOLD = 24  # files; below this a process pool costs more than it saves


def selected_rules(settings: Settings) -> list[Rule]:
    rules = []
    for code, cls in all_rules().items():
        chosen = (
            any(code_matches(code, s) for s in settings.select)
            if settings.select else not cls.preview or settings.preview
        )
        chosen = chosen or any(code_matches(code, s) for s in settings.extend_select)
        if chosen and not any(code_matches(code, s) for s in settings.ignore):
            rules.append(cls())
    return rules


def needs_parse(language: Language, source: str) -> bool:
    """The cheap prefilter: a file that can hold neither a kernel nor a launch costs no parse
    (a host file that launches kernels from its headers still has grids to check)."""
    if language is Language.TRITON:
        return "triton" in source
    return "__global__" in source or "__device__" in source or "<<<" in source


def parse(path: str, language: Language, source: str, settings: Settings) -> Module:
    if language is Language.TRITON:
        from boundcheck.frontends.triton import parse_module
        return parse_module(path, source)
    from boundcheck.frontends.cuda import parse_module as parse_cuda
    return parse_cuda(path, source, settings.cuda_args)


def check_source(path: str, language: Language, source: str, settings: Settings) -> tuple[list[Finding], bool]:
    """Findings for one file (suppressions applied) and whether it was parsed."""
    if not needs_parse(language, source):
        return [], False
    try:
        module = parse(path, language, source, settings)
    except Exception as exc:  # noqa: BLE001 - a frontend bug must not end the run: report it as BC001
        module = Module(path, language, source, errors=[(Span(1, 0, 1, 0), f"internal error: {exc!r}")])
    findings: list[Finding] = []
    for rule in selected_rules(settings):
        findings.extend(rule.check(module))
    unique = {(f.code, f.span, f.message): f for f in findings}  # an inlined helper reports once
    findings = suppressions.apply(module, list(unique.values()), settings)
    return sorted(findings, key=Finding.sort_key), True


def _check_file(args: tuple[str, Language, Settings]) -> list[Finding]:
    path, language, settings = args
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return [Finding("BC001", "parse-failure", f"could not be read: {exc.strerror}", path,
                        Span(1, 0, 1, 0))]
    return check_source(path, language, source, settings)[0]


def check_paths(paths: list[str], settings: Settings) -> list[Finding]:
    """Findings for every file under ``paths``, suppressed ones included and marked."""
    work = [(str(p), lang, settings) for p, lang in
            discover(paths, settings.exclude + settings.extend_exclude, settings.respect_gitignore)]
    jobs = settings.jobs or min(os.cpu_count() or 1, 8)
    if jobs > 1 and len(work) >= PARALLEL_THRESHOLD:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_check_file, work, chunksize=8))
    else:
        outcomes = [_check_file(w) for w in work]
    return sorted((f for findings in outcomes for f in findings), key=Finding.sort_key)
