"""Rule pages against the registry and the analyzer: one page per rule, every key and section,
and every Example flagged by its own rule while every Use-instead block is flagged by nothing, so
a page cannot drift from what the code reports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundcheck.cli import app
from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.pages import Page, all_pages, pages_dir
from boundcheck.registry import all_rules
from boundcheck.settings import Settings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
KEYS = {"code", "name", "summary", "languages", "default", "severity", "precision", "tags"}
SECTIONS = ["What it does", "Why is this bad?", "Example", "Use instead", "Fix safety", "Contracts",
            "How it was proven"]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
LANGUAGES = {"python": (Language.TRITON, "example.py"), "cuda": (Language.CUDA, "example.cu")}
RULES = all_rules()
PAGES = all_pages()


def blocks(page: Page, section: str) -> list[tuple[str, str]]:
    """(fence language, code) of each fenced block in a section."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(page.section(section) + "\n")]


def codes_reported(fence: str, source: str) -> tuple[set[str], str]:
    language, path = LANGUAGES[fence]
    findings, _ = check_source(path, language, source, Settings())
    live = [f for f in findings if f.suppressed_by is None]
    return {f.code for f in live}, "\n".join(f"  {f.code} line {f.span.line}: {f.message}" for f in live)


def examples(section: str) -> list[tuple[str, str, str]]:
    return [(code, fence, source) for code, page in PAGES.items() for fence, source in blocks(page, section)]


def test_one_page_per_rule() -> None:
    files = sorted(p.name for p in pages_dir().glob("BC*.md"))
    assert files == sorted(f"{code}-{cls.name}.md" for code, cls in RULES.items())
    assert sorted(PAGES) == sorted(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_front_matter_matches_the_rule(code: str) -> None:
    page, cls = PAGES[code], RULES[code]
    assert KEYS <= set(page.meta), f"{page.path.name} lacks {sorted(KEYS - set(page.meta))}"
    assert (page.code, page.name) == (cls.code, cls.name)
    assert page.meta["default"] is not cls.preview
    assert page.meta["severity"] in ("error", "warning")
    assert page.meta["precision"] in ("medium", "high", "very-high")
    assert page.summary and "\n" not in page.summary
    assert page.meta["tags"] and all(isinstance(t, str) for t in page.meta["tags"])
    languages = page.meta["languages"]
    assert languages in (["triton", "cuda"], ["cuda"])
    assert set(languages) <= {lang.value for lang in cls.languages}


@pytest.mark.parametrize("code", sorted(RULES))
def test_page_has_every_section_in_order(code: str) -> None:
    page = PAGES[code]
    assert page.text.splitlines()[0] == f"# {page.code} {page.name}"
    titles = [line[3:].strip() for line in page.text.splitlines() if line.startswith("## ")]
    assert [t for t in titles if t in SECTIONS] == SECTIONS, titles
    for title in SECTIONS:
        assert page.section(title), f"{page.path.name}: empty section {title!r}"
    if code >= "BC100":  # rules about kernels are proven on fixtures; BC0xx are about the tool
        assert (FIXTURES / f"{code}-{page.name}").is_dir()
        assert f"../fixtures/{code}-{page.name}/" in page.section("How it was proven")
        assert "../fixtures/evidence/" in page.section("How it was proven")


@pytest.mark.parametrize("code", sorted(RULES))
def test_one_example_per_language_triton_first(code: str) -> None:
    page = PAGES[code]
    want = ["python" if lang == "triton" else "cuda" for lang in page.meta["languages"]]
    for section in ("Example", "Use instead"):
        assert [fence for fence, _ in blocks(page, section)] == want, f"{page.path.name}: {section}"


@pytest.mark.parametrize(("code", "fence", "source"), examples("Example"),
                         ids=lambda v: v if v in LANGUAGES or v in RULES else "")
def test_example_is_flagged_by_its_own_rule(code: str, fence: str, source: str) -> None:
    reported, details = codes_reported(fence, source)
    assert reported == {code}, f"{code} {fence} example reports {sorted(reported)}\n{details}"


@pytest.mark.parametrize(("code", "fence", "source"), examples("Use instead"),
                         ids=lambda v: v if v in LANGUAGES or v in RULES else "")
def test_use_instead_is_flagged_by_nothing(code: str, fence: str, source: str) -> None:
    reported, details = codes_reported(fence, source)
    assert not reported, f"{code} {fence} use-instead reports {sorted(reported)}\n{details}"


def test_rules_command_lists_every_code() -> None:
    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.splitlines() if line.strip()]
    assert listed == sorted(RULES)
    for code, page in PAGES.items():
        assert page.summary in result.output, code


def test_rule_command_prints_the_page() -> None:
    result = CliRunner().invoke(app, ["rule", "bc101"])
    assert result.exit_code == 0
    assert result.output.strip() == PAGES["BC101"].text


def test_rule_command_rejects_an_unknown_code() -> None:
    result = CliRunner().invoke(app, ["rule", "BC999"])
    assert result.exit_code == 2
