"""SARIF 2.1.0 for GitHub code scanning: relative URIs under ``%SRCROOT%`` (the working directory),
full rule metadata from the rule pages, 1-based code-point regions, the upload action's own line
fingerprints, and suppressed findings kept as suppressed results so alerts close instead of vanish."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from boundcheck import __version__
from boundcheck.findings import Finding
from boundcheck.model import Span
from boundcheck.pages import page_for
from boundcheck.registry import Rule, all_rules
from boundcheck.reporters.fingerprint import file_line_hashes

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/boundcheck/boundcheck"
RULES_URI = "https://github.com/boundcheck/boundcheck/blob/main/rules/"
# The category is what precedes the last "/": one stable category keeps alerts tracked across runs.
AUTOMATION_ID = "boundcheck/"
SRCROOT = "%SRCROOT%"
MAX_RESULTS = 25_000  # GitHub code scanning's limit per run

_LEVEL = {"error": "error", "warning": "warning", "note": "note", "recommendation": "note", "info": "note"}
_PROBLEM = {"error": "error", "warning": "warning", "note": "recommendation", "recommendation": "recommendation",
            "info": "recommendation"}


def _first_paragraph(markdown: str) -> str:
    for block in markdown.split("\n\n"):
        block = block.strip()
        if block and not block.startswith("#"):
            return " ".join(block.split())
    return ""


def _sentence(text: str) -> str:
    """SARIF messages are sentences; the Multitool asks for the closing period."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _severity(code: str, cls: type[Rule]) -> str:
    page = page_for(code)
    if page is not None and "severity" in page.meta:
        return str(page.meta["severity"])
    return "warning" if code.startswith("BC0") else "error"  # the meta rules are about comments and files


def level(code: str) -> str:
    """The SARIF level (``error``/``warning``/``note``) of a rule's findings."""
    cls = all_rules().get(code)
    return _LEVEL.get(_severity(code, cls), "warning") if cls else "warning"


def rule_descriptor(code: str, cls: type[Rule]) -> dict[str, object]:
    """One ``reportingDescriptor``: the page's metadata, or the class docstring until a page exists."""
    page = page_for(code)
    doc = " ".join((cls.__doc__ or cls.name).split())
    severity = _severity(code, cls)
    if page is not None:
        precision = str(page.meta.get("precision", "high"))
        tags = [str(t) for t in page.meta.get("tags", [])]  # type: ignore[union-attr]
        summary, body, file = page.summary or doc, page.text, page.path.name
        full = _first_paragraph(body) or summary
    else:
        precision = "medium" if cls.preview else "high"
        tags = sorted(lang.value for lang in cls.languages)
        summary = full = body = doc
        file = f"{code}-{cls.name}.md"
    tags = list(dict.fromkeys(["correctness", *tags]))
    return {
        "id": code,
        "name": cls.name,
        "shortDescription": {"text": _sentence(summary)},
        "fullDescription": {"text": _sentence(full)},
        "help": {"text": body, "markdown": body},
        "helpUri": RULES_URI + quote(file),
        "defaultConfiguration": {"enabled": not cls.preview, "level": _LEVEL.get(severity, "warning")},
        "properties": {"tags": tags, "precision": precision,
                       "problem.severity": _PROBLEM.get(severity, "warning")},
    }


class _Artifacts:
    """Where each finding's file lies relative to the source root, and its line hashes (read once)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._hashes: dict[str, list[str]] = {}

    def location(self, path: str) -> dict[str, str]:
        absolute = Path(os.path.abspath(path))
        try:
            return {"uri": quote(absolute.relative_to(self.root).as_posix()), "uriBaseId": SRCROOT}
        except ValueError:  # outside the source root: only an absolute URI can name it
            return {"uri": absolute.as_uri()}

    def line_hash(self, path: str, line: int) -> str | None:
        if path not in self._hashes:
            try:
                self._hashes[path] = file_line_hashes(path)
            except OSError:
                self._hashes[path] = []
        hashes = self._hashes[path]
        return hashes[line - 1] if 0 < line <= len(hashes) else None


def _region(span: Span) -> dict[str, int]:
    line = max(span.line, 1)
    end_line = max(span.end_line, line)
    end_col = span.end_col if (end_line, span.end_col) >= (line, span.col) else span.col
    return {"startLine": line, "startColumn": span.col + 1, "endLine": end_line, "endColumn": end_col + 1}


def _result(f: Finding, index: dict[str, int], levels: dict[str, str], artifacts: _Artifacts) -> dict:
    location = artifacts.location(f.path)
    physical: dict[str, object] = {"artifactLocation": location, "region": _region(f.span)}
    result: dict[str, object] = {"ruleId": f.code}
    if f.code in index:
        result["ruleIndex"] = index[f.code]
    result["level"] = levels.get(f.code, "warning")
    result["message"] = {"text": _sentence(f.message)}
    loc: dict[str, object] = {"physicalLocation": physical}
    if f.kernel:
        loc["logicalLocations"] = [{"name": f.kernel, "kind": "function"}]
    result["locations"] = [loc]
    if f.related:
        result["relatedLocations"] = [
            {"id": i, "physicalLocation": {"artifactLocation": location, "region": _region(span)},
             "message": {"text": note}} for i, (span, note) in enumerate(f.related)]
    line_hash = artifacts.line_hash(f.path, max(f.span.line, 1))
    if line_hash is not None:
        result["partialFingerprints"] = {"primaryLocationLineHash": line_hash}
    if f.fix is not None:
        result["fixes"] = [{
            "description": {"text": _sentence(f.fix.message)},
            "artifactChanges": [{
                "artifactLocation": location,
                "replacements": [{"deletedRegion": _region(e.span), "insertedContent": {"text": e.text}}
                                 for e in f.fix.edits],
            }],
        }]
    if f.suppressed_by is not None:
        result["suppressions"] = [{"kind": "inSource", "properties": {"comment": f.suppressed_by}}]
    return result


def render(findings: list[Finding], root: Path | None = None) -> str:
    """The SARIF log for one run. ``root`` (default: the working directory) is ``%SRCROOT%``."""
    root = Path(os.path.abspath(root or Path.cwd()))
    rules = [rule_descriptor(code, cls) for code, cls in all_rules().items()]
    index = {str(r["id"]): i for i, r in enumerate(rules)}
    levels = {str(r["id"]): str(r["defaultConfiguration"]["level"]) for r in rules}  # type: ignore[index]
    # Over the limit, keep what users act on: unsuppressed findings first, in file order.
    ordered = sorted(findings, key=lambda f: (f.suppressed_by is not None, f.sort_key()))
    kept = ordered[:MAX_RESULTS]
    artifacts = _Artifacts(root)
    invocation: dict[str, object] = {"executionSuccessful": True}
    if len(findings) > MAX_RESULTS:
        invocation["toolExecutionNotifications"] = [{
            "descriptor": {"id": "results-truncated"},
            "level": "warning",
            "message": {"text": f"{len(findings)} results exceed GitHub code scanning's limit of"
                                f" {MAX_RESULTS} per run; the first {MAX_RESULTS} are reported."},
        }]
    run = {
        "tool": {"driver": {
            "name": "boundcheck",
            "fullName": f"boundcheck {__version__}",
            "version": __version__,
            "semanticVersion": __version__,
            "informationUri": INFORMATION_URI,
            "rules": rules,
        }},
        "automationDetails": {"id": AUTOMATION_ID},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [_result(f, index, levels, artifacts) for f in sorted(kept, key=Finding.sort_key)],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2)
