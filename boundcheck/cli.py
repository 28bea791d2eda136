"""The command line: ``boundcheck PATH...`` checks; ``rules``, ``rule`` and ``report`` explain.

Exit codes: 0 no findings, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

from boundcheck.settings import Settings


class _DefaultToCheck(TyperGroup):
    """``boundcheck PATH`` means ``boundcheck check PATH`` (as ruff's ``check`` is implied)."""

    def resolve_command(self, ctx, args: list[str]):  # type: ignore[no-untyped-def,override]
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["check", *args]
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx, args: list[str]) -> list[str]:  # type: ignore[no-untyped-def,override]
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = ["check", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(cls=_DefaultToCheck, add_completion=False, no_args_is_help=True,
                  help="Find boundary-handling bugs in tiled Triton and CUDA kernels.")


def _print_version(value: bool) -> None:
    if value:
        from boundcheck import __version__

        typer.echo(f"boundcheck {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Find boundary-handling bugs in tiled Triton and CUDA kernels."""


class OutputFormat(str, Enum):
    full = "full"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"


def _split(values: list[str] | None) -> list[str]:
    return [c.strip() for v in values or [] for c in v.split(",") if c.strip()]


@app.command()
def check(
    paths: Annotated[list[str], typer.Argument(help="Files or directories to check.")],
    output_format: Annotated[OutputFormat, typer.Option("--output-format", help="How findings are printed.")] = OutputFormat.full,
    output_file: Annotated[Path | None, typer.Option("--output-file", "-o", help="Write the report here.")] = None,
    select: Annotated[list[str] | None, typer.Option(help="Rule codes or prefixes to enable (comma-separated).")] = None,
    ignore: Annotated[list[str] | None, typer.Option(help="Rule codes or prefixes to disable.")] = None,
    extend_select: Annotated[list[str] | None, typer.Option(help="Codes to enable on top of the selection.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(help="Glob patterns of paths to skip.")] = None,
    preview: Annotated[bool | None, typer.Option("--preview/--no-preview", help="Enable preview rules.")] = None,
    cuda_arg: Annotated[list[str] | None, typer.Option("--cuda-arg", help="Extra clang flag for CUDA files (-D, -I).")] = None,
    no_gitignore: Annotated[bool, typer.Option("--no-gitignore", help="Check files that .gitignore excludes.")] = False,
    fix: Annotated[bool, typer.Option("--fix", help="Apply safe fixes.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Show safe fixes as a diff; change nothing.")] = False,
    unsafe_fixes: Annotated[bool, typer.Option("--unsafe-fixes", help="With --fix or --diff, apply unsafe fixes too.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 0,
    config: Annotated[Path | None, typer.Option("--config", help="A boundcheck.toml or pyproject.toml to use.")] = None,
    statistics: Annotated[bool, typer.Option("--statistics", help="Count findings per rule.")] = False,
) -> None:
    """Check PATHS for boundary bugs."""
    from boundcheck import config as configuration
    from boundcheck.engine import check_paths

    try:
        settings = configuration.load(paths, config)
    except configuration.ConfigError as exc:
        typer.echo(f"boundcheck: error: {exc}", err=True)
        raise typer.Exit(2) from None
    overrides = Settings(select=_split(select), ignore=_split(ignore), extend_select=_split(extend_select),
                         exclude=list(exclude or []), cuda_args=list(cuda_arg or []))
    settings = configuration.merge(settings, overrides, preview=preview, jobs=jobs,
                                   respect_gitignore=False if no_gitignore else None)
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        typer.echo(f"boundcheck: error: no such file or directory: {', '.join(missing)}", err=True)
        raise typer.Exit(2)
    findings = check_paths(paths, settings)
    if fix or diff:
        from boundcheck import fixes

        findings, text = fixes.run(findings, settings, write=fix and not diff, unsafe=unsafe_fixes)
        if diff:
            typer.echo(text, nl=False)
            raise typer.Exit(1 if text else 0)
    if statistics:
        counts: dict[tuple[str, str], int] = {}
        for f in findings:
            if f.suppressed_by is None:
                counts[(f.code, f.name)] = counts.get((f.code, f.name), 0) + 1
        rendered = "\n".join(f"{n:5d}  {c}  {name}" for (c, name), n in sorted(counts.items()))
    else:
        rendered = _render(findings, output_format, output_file is None and sys.stdout.isatty())
    if output_file:
        output_file.write_text(rendered + ("\n" if rendered and not rendered.endswith("\n") else ""), encoding="utf-8")
    elif rendered:
        typer.echo(rendered)
    raise typer.Exit(1 if any(f.suppressed_by is None for f in findings) else 0)


def _render(findings: list, fmt: OutputFormat, color: bool) -> str:
    if fmt is OutputFormat.json:
        from boundcheck.reporters import json as json_reporter
        return json_reporter.render(findings)
    if fmt is OutputFormat.sarif:
        from boundcheck.reporters import sarif
        return sarif.render(findings)
    if fmt is OutputFormat.github:
        from boundcheck.reporters import github
        return github.render(findings)
    from boundcheck.reporters import text
    return text.render(findings, show_source=fmt is OutputFormat.full, color=color)


@app.command("rules")
def list_rules() -> None:
    """List every rule: code, name, languages, default or preview."""
    from boundcheck.pages import page_for
    from boundcheck.registry import all_rules

    for code, cls in all_rules().items():
        langs = ",".join(sorted(lang.value for lang in cls.languages))
        page = page_for(code)
        summary = page.summary if page else ""
        typer.echo(f"{code}  {cls.name:<22} {langs:<13} {'preview' if cls.preview else 'default':<8} {summary}")


@app.command("rule")
def show_rule(code: Annotated[str, typer.Argument(help="A rule code such as BC101.")]) -> None:
    """Print a rule's page."""
    from boundcheck.pages import page_for

    page = page_for(code.upper())
    if page is None:
        typer.echo(f"boundcheck: error: no rule {code}", err=True)
        raise typer.Exit(2)
    typer.echo(page.text)


@app.command("report")
def report(
    target: Annotated[str, typer.Argument(help="FILE or FILE::KERNEL (a Triton .py or a CUDA .cu/.cuh file).")],
    output_format: Annotated[str, typer.Option("--output-format", help="text or json.")] = "text",
) -> None:
    """Print the boundary report of each kernel in FILE (or only KERNEL).

    Per tiled dimension: the extent, the tile, the tile count and the last partial tile, the
    tensors read and written along it with how each access is protected (mask, guard, wrap,
    boundary_check, contract, loop that stops before the tail, or UNPROTECTED), the padding of
    masked reads and the reductions it feeds; then the tile loops, the launches, the contracts
    the kernel relies on, and the shapes it does not support (one line per finding of the
    default rules). Exit 0; 2 for an unknown kernel or a file that does not parse.

    \b
    JSON (--output-format json), schema "boundcheck-report/1":
      {schema, file, language ("triton"|"cuda"), kernels: [kernel]}
      kernel: name, line, dimensions: [dimension], shared: [access], loops: [loop],
        launches: [launch], contracts: [contract], unsupported: [shape]
      dimension: label, source, tiling ("program"|"loop"|"whole"),
        loop_line (int|null), tile, extent (str|null),
        extent_from ("guard"|"contract"|"loop header"|null), other_extents: [str],
        tile_count (str|null), last_tile (str|null), last_tile_full (bool), accesses: [access]
      access: buffer, kind ("read"|"write"|"atomic"), line, axis (int|null),
        status ("protected"|"UNPROTECTED"|"unknown"), protection: [{kind, text, line}],
        padding ({value (str|null), undefined, stale}|null), uses: [use]
        protection kind: mask|guard|wrap|clamp|boundary_check|contract|full_tiles|
          fixed_region|peeled_tail|single_tile|local_guard|opaque
      use: reduction, identity, padding, via: [str], line, is_identity (bool|null)
      loop: line, end_line, var, header, trip ("floor"|"ceil"|"stepped"|"full_tiles"|"other"),
        floor_division (str|null)
      launch: line, text, floor_grid: [{text, extent, tile, line, contract (contract|null)}]
      contract: extent, tile, origin, text
      shape: condition, code, name, line, message, suppressed_by (str|null)
    """
    from boundcheck import report as boundary_report
    from boundcheck.discovery import language_of

    if output_format not in ("text", "json"):
        typer.echo(f"boundcheck: error: --output-format must be text or json, not {output_format}", err=True)
        raise typer.Exit(2)
    file, _, kernel = target.partition("::")
    path = Path(file)
    language = language_of(path)
    if language is None or not path.is_file():
        why = "no such file" if not path.is_file() else "not a Triton (.py) or CUDA (.cu/.cuh) file"
        typer.echo(f"boundcheck: error: {file}: {why}", err=True)
        raise typer.Exit(2)
    source = path.read_text(encoding="utf-8", errors="replace")
    module, findings = boundary_report.analyse(file, language, source, Settings())
    if module.errors:
        for span, reason in module.errors:
            typer.echo(f"{file}:{span.line}:{span.col + 1}: BC001 could not be analysed: {reason}", err=True)
        raise typer.Exit(2)
    names = [k.name for k in module.kernels]
    if kernel and kernel not in names:
        typer.echo(f"boundcheck: error: no kernel `{kernel}` in {file}; its kernels: "
                   f"{', '.join(names) or 'none'}", err=True)
        raise typer.Exit(2)
    reports = boundary_report.build(module, findings, kernel or None)
    if output_format == "json":
        typer.echo(boundary_report.to_json(file, language, reports))
    else:
        typer.echo(boundary_report.to_text(file, reports) or f"{file}: no kernels")


def main() -> None:
    """Usage errors exit 2 (click's standalone mode); an internal error is exit 2 with one line,
    never a silent 0 or 1."""
    try:
        app()
    except SystemExit:
        raise
    except Exception as exc:  # noqa: BLE001 - any crash is reported as an internal error, exit 2
        typer.echo(f"boundcheck: internal error: {exc!r}", err=True)
        sys.exit(2)
