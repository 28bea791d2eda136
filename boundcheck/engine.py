"""One run: discover files, parse each with its frontend, apply the selected rules, then
suppressions. Files are analysed independently, so large runs fan out over processes; a file
whose kernels other files of the run launch (a CUDA header, a Python module of kernels), that
calls a host helper only another file of the run defines, or whose launchers another C/C++ file
beside it calls after checking their arguments (an extension's binding), is analysed again with
those launches, that helper's summary or those checks, and its second result stands."""

from __future__ import annotations

import os
import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
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


Launched = dict[str, list[object]]  # a file's kernels by name: launches other files make
Summaries = dict[str, object]  # host helpers by name: what another file's definition was read to do
Calls = dict[str, list[tuple[tuple[str, str], ...]]]  # a function's calls: the facts each holds, by argument position


@dataclass
class Given:
    """What other files of the run hand a file: launches of its kernels, summaries of helpers it
    only declares."""

    launched: Launched = field(default_factory=dict)
    helpers: Summaries = field(default_factory=dict)
    inlined: set[int] = field(default_factory=set)  # lines of its jit helpers other files' kernels inline
    callers: Calls = field(default_factory=dict)  # what other files' calls of its launchers hold

    def size(self) -> int:
        return sum(len(v) for v in self.launched.values()) + len(self.helpers) + len(self.inlined) \
            + sum(len(v) for v in self.callers.values())


def parse(path: str, language: Language, source: str, settings: Settings, given: Given | None = None) -> Module:
    given = given or Given()
    if language is Language.TRITON:
        from boundcheck.frontends.triton import parse_module
        return parse_module(path, source, given.launched, given.inlined)
    from boundcheck.frontends.cuda import parse_module as parse_cuda
    return parse_cuda(path, source, settings.cuda_args, given.launched, given.helpers,  # type: ignore[arg-type]
                      given.callers)


def check_source(path: str, language: Language, source: str, settings: Settings) -> tuple[list[Finding], bool]:
    """Findings for one file (suppressions applied) and whether it was parsed."""
    outcome = _analyse(path, language, source, settings)
    return outcome.findings, outcome.parsed


Foreign = dict[tuple[str, str], list[object]]  # (defining file, or "" where not known; kernel) -> launches


@dataclass
class Outcome:
    """One file's findings and what it tells the run about other files."""

    findings: list[Finding] = field(default_factory=list)
    parsed: bool = False
    foreign: Foreign = field(default_factory=dict)  # its launches of kernels other files define
    defined: frozenset[str] = frozenset()  # the kernels it defines
    summaries: Summaries = field(default_factory=dict)  # the host helpers it defines, read
    wanted: frozenset[str] = frozenset()  # helpers it calls with no body where a summary was asked
    inlined: frozenset[tuple[str, int]] = frozenset()  # jit helpers of other files it inlines
    entries: frozenset[str] = frozenset()  # its host functions that reach a launch, callable from other files


def _analyse(path: str, language: Language, source: str, settings: Settings, given: Given | None = None) -> Outcome:
    if not needs_parse(language, source):
        return Outcome()
    try:
        module = parse(path, language, source, settings, given)
    except Exception as exc:  # noqa: BLE001 - a frontend bug must not end the run: report it as BC001
        module = Module(path, language, source, errors=[(Span(1, 0, 1, 0), f"internal error: {exc!r}")])
    findings: list[Finding] = []
    for rule in selected_rules(settings):
        findings.extend(rule.check(module))
    findings = suppressions.apply(module, _once(findings), settings)
    return Outcome(sorted(findings, key=Finding.sort_key), True, module.foreign_launches,
                   frozenset(k.name for k in module.kernels), module.helper_summaries, frozenset(module.wanted_helpers),
                   frozenset(module.inlined_helpers), frozenset(module.launch_entries))


def _once(findings: list[Finding]) -> list[Finding]:
    """One finding per place and message: an inlined helper reports once, pointing at every call
    that reaches it."""
    unique: dict[tuple[str, Span, str], Finding] = {}
    for f in findings:
        key = (f.code, f.span, f.message)
        first = unique.setdefault(key, f)
        if first is not f:
            first.related = first.related + tuple(r for r in f.related if r not in first.related)
    return list(unique.values())


def _check_file(args: tuple[str, Language, Settings, Given | None]) -> Outcome:
    path, language, settings, given = args
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return Outcome([Finding("BC001", "parse-failure", f"could not be read: {exc.strerror}", path,
                                Span(1, 0, 1, 0))])
    return _analyse(path, language, source, settings, given)


def check_paths(paths: list[str], settings: Settings) -> list[Finding]:
    """Findings for every file under ``paths``, suppressed ones included and marked."""
    work: list[tuple[str, Language, Settings, Given | None]] = [
        (str(p), lang, settings, None)
        for p, lang in discover(paths, settings.exclude + settings.extend_exclude, settings.respect_gitignore)]
    jobs = settings.jobs or min(os.cpu_count() or 1, 8)
    pool = ProcessPoolExecutor(jobs) if jobs > 1 and len(work) >= PARALLEL_THRESHOLD else None
    try:
        outcomes = _in_launch_order(pool, work)
    finally:
        if pool is not None:
            pool.shutdown()
    return sorted((f for findings in outcomes for f in findings), key=Finding.sort_key)


def _in_launch_order(pool: ProcessPoolExecutor | None, work: list) -> list[list[Finding]]:
    """Each file's findings, a file analysed after the files that launch its kernels: first the
    files no other file's text imports kernels from, then those it does (with the launches the
    first found), then again any file that was handed launches or helper summaries after its
    analysis (a header whose kernels a ``.cu`` file launches, found only by parsing that file; a
    file calling an ``extern`` helper another file defines)."""
    real = [os.path.realpath(w[0]) for w in work]
    later = _launched_files(work)
    given: dict[str, Given] = {}
    outcomes: list[list[Finding]] = [[] for _ in work]
    had = [0] * len(work)
    defines: dict[str, list[int]] = {}  # kernel name -> the files of the run defining it
    summaries: dict[str, list[tuple[int, object]]] = {}  # helper name -> (defining file, summary)
    wanted: list[tuple[int, str]] = []  # helpers called with no body where a summary was asked
    unresolved: list[tuple[int, str, list[object]]] = []  # launches of kernels only declared where launched
    entries: dict[int, frozenset[str]] = {}  # launchers other files may call, by defining file

    def count(i: int) -> int:
        return given[real[i]].size() if real[i] in given else 0

    def analyse(indices: list[int], collect: bool) -> None:
        for i in indices:
            had[i] = count(i)
        batch = [(*work[i][:3], given.get(real[i])) for i in indices]
        for i, out in zip(indices, _run(pool, batch)):
            outcomes[i] = out.findings
            if not collect:
                continue
            for name in out.defined:
                defines.setdefault(name, []).append(i)
            for name, summary in out.summaries.items():
                summaries.setdefault(name, []).append((i, summary))
            wanted.extend((i, name) for name in out.wanted)
            if out.entries:
                entries[i] = out.entries
            for file, line in out.inlined:
                given.setdefault(file, Given()).inlined.add(line)
            for (file, kernel), hls in out.foreign.items():
                if file:
                    given.setdefault(file, Given()).launched.setdefault(kernel, []).extend(hls)
                else:
                    unresolved.append((i, kernel, hls))

    analyse([i for i in range(len(work)) if real[i] not in later], True)
    analyse([i for i in range(len(work)) if real[i] in later], True)
    for i, kernel, hls in unresolved:
        # a kernel declared in a header and defined in another file of the run: the one definition
        # of that name beside the launching file (its directory, or one above or below)
        near = [j for j in defines.get(kernel, []) if _beside(real[i], real[j])]
        if len(near) == 1:
            given.setdefault(real[near[0]], Given()).launched.setdefault(kernel, []).extend(hls)
    for i, name in wanted:  # the same for a host helper: one definition beside the caller
        near = [s for j, s in summaries.get(name, []) if j != i and _beside(real[i], real[j])]
        if len(near) == 1 and near[0] is not None:
            given.setdefault(real[i], Given()).helpers[name] = near[0]
    for i, name, made in _calls_beside(pool, work, real, entries):
        given.setdefault(real[i], Given()).callers.setdefault(name, []).extend(made)
    analyse([i for i in range(len(work)) if count(i) > had[i]], False)
    return outcomes


def _calls_beside(pool: ProcessPoolExecutor | None, work: list, real: list[str],
                  entries: dict[int, frozenset[str]]) -> list[tuple[int, str, list]]:
    """The calls other C/C++ files of the run make of each file's launchers (a binding checks
    ``x.size(2) % 2 == 0``, then calls ``forward_cuda(x)`` in the ``.cu`` beside it): (defining
    file, name, what each call holds). Only files beside the definition, whose text names it, are
    read, and only a name one file beside the caller defines. The files that can check (a
    remainder test or an ``& ~`` rounding in their text) are read first; where one of their calls
    holds something, the other callers are read too, as every call must hold it. A name no call
    checks is not handed over (the defining file's own callers decide, as in a one-file run)."""
    from boundcheck.frontends.cuda_host import may_hold_facts  # only where CUDA files define launchers

    by_dir: dict[str, list[int]] = {}
    by_parent: dict[str, list[int]] = {}
    for i in entries:
        by_dir.setdefault(os.path.dirname(real[i]), []).append(i)
        by_parent.setdefault(os.path.dirname(os.path.dirname(real[i])), []).append(i)
    checking: list[tuple[tuple[str, Settings, set[str]], dict[str, list[int]]]] = []
    plain: list[tuple[tuple[str, Settings, set[str]], dict[str, list[int]]]] = []
    for j, (path, language, settings, _) in enumerate(work):
        d = os.path.dirname(real[j])
        near = [i for i in by_dir.get(d, []) + by_dir.get(os.path.dirname(d), []) + by_parent.get(d, []) if i != j]
        if language is not Language.CUDA or not near:
            continue
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        owner: dict[str, list[int]] = {}
        for i in near:
            for name in entries[i]:
                if name.encode() in data and re.search(rb"\b" + re.escape(name.encode()) + rb"\s*\(", data):
                    owner.setdefault(name, []).append(i)
        if owner:
            (checking if may_hold_facts(data) else plain).append(((path, settings, set(owner)), owner))
    found = _call_jobs(pool, checking)
    checked = {name for (_, owner), calls in zip(checking, found) for name, made in calls.items() if any(made)}
    rest = [((path, settings, names & checked), owner) for (path, settings, names), owner in plain if names & checked]
    found += _call_jobs(pool, rest)
    return [(owner[name][0], name, made) for (_, owner), calls in zip(checking + rest, found)
            for name, made in calls.items() if name in checked and len(owner.get(name, [])) == 1]


def _call_jobs(pool: ProcessPoolExecutor | None, jobs: list[tuple[tuple[str, Settings, set[str]], object]]) -> list[dict]:
    args = [job for job, _ in jobs]
    return list(pool.map(_calls_of, args)) if pool is not None and len(args) > 1 else [_calls_of(a) for a in args]


def _calls_of(job: tuple[str, Settings, set[str]]) -> dict[str, list]:
    path, settings, names = job
    from boundcheck.frontends.cuda import calls_in
    try:
        source = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return calls_in(path, source, settings.cuda_args, names)


def _beside(a: str, b: str) -> bool:
    """Two files in one directory, or one in the other's parent directory."""
    da, db = os.path.dirname(a), os.path.dirname(b)
    return da == db or os.path.dirname(da) == db or os.path.dirname(db) == da


def _launched_files(work: list) -> set[str]:
    """The Triton modules whose kernels other files of the run import and launch, read from
    their text (:func:`~boundcheck.frontends.triton_imports.launched_modules`). One file (a
    pre-commit hook's) launches none another file defines, and a CUDA run imports nothing here."""
    triton = [path for path, language, *_ in work if language is Language.TRITON]
    if len(work) < 2 or not triton:
        return set()
    from boundcheck.frontends.triton_imports import launched_modules

    out: set[str] = set()
    for path in triton:
        try:
            source = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "import" in source and "triton" in source:
            out |= launched_modules(path, source)
    return out


def _run(pool: ProcessPoolExecutor | None, work: list) -> list:
    if pool is not None and len(work) >= PARALLEL_THRESHOLD:
        return list(pool.map(_check_file, work, chunksize=8))
    return [_check_file(w) for w in work]
