"""The command line: ``boundcheck PATH...`` checks; ``rules``, ``rule`` and ``report`` explain.

Exit codes: 0 no findings, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

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
    output_file: Annotated[Optional[Path], typer.Option("--output-file", "-o", help="Write the report here.")] = None,
    select: Annotated[Optional[list[str]], typer.Option(help="Rule codes or prefixes to enable (comma-separated).")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option(help="Rule codes or prefixes to disable.")] = None,
    extend_select: Annotated[Optional[list[str]], typer.Option(help="Codes to enable on top of the selection.")] = None,
    exclude: Annotated[Optional[list[str]], typer.Option(help="Glob patterns of paths to skip.")] = None,
    preview: Annotated[Optional[bool], typer.Option("--preview/--no-preview", help="Enable preview rules.")] = None,
    cuda_arg: Annotated[Optional[list[str]], typer.Option("--cuda-arg", help="Extra clang flag for CUDA files (-D, -I).")] = None,
    no_gitignore: Annotated[bool, typer.Option("--no-gitignore", help="Check files that .gitignore excludes.")] = False,
    fix: Annotated[bool, typer.Option("--fix", help="Apply safe fixes.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Show safe fixes as a diff; change nothing.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per core).")] = 0,
    config: Annotated[Optional[Path], typer.Option("--config", help="A boundcheck.toml or pyproject.toml to use.")] = None,
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
    result = check_paths(paths, settings)
    findings = result.findings
    if fix or diff:
        from boundcheck import fixes

        findings, text = fixes.run(findings, settings, write=fix and not diff)
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


def main() -> None:
    """Usage errors exit 2 (click's standalone mode); an internal error is exit 2 with one line,
    never a silent 0 or 1."""
    try:
        app()
    except SystemExit:
        raise
    except Exception as exc:
        typer.echo(f"boundcheck: internal error: {exc!r}", err=True)
        sys.exit(2)
