"""Helpers for the SARIF tests: the real CLI, Microsoft's SARIF Multitool, the shipped schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NODE_PACKAGE = REPO / ".ci" / "node" / "node_modules" / "@microsoft" / "sarif-multitool"

# Multitool notes (never errors or warnings) that boundcheck's output draws by design:
JUSTIFIED_NOTES = {
    "SARIF2002",  # message ids + arguments: plain text messages are what GitHub displays
    "SARIF2003",  # versionControlProvenance: the upload action records the commit itself
    "SARIF2006",  # URIs "not reachable": checked over HTTP; offline here, and the repo may be private
    "SARIF2010",  # region snippets: GitHub shows the code from the checkout
    "SARIF2011",  # context regions: likewise
    "SARIF2012",  # Pascal-case rule names: ours are the stable kebab-case names users select by
}


def run_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``boundcheck ARGS`` as a user runs it (this checkout's code)."""
    path = [str(REPO), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    return subprocess.run([sys.executable, "-m", "boundcheck", *args], cwd=cwd, env=env, check=False,
                          capture_output=True, text=True, timeout=300)


def multitool() -> Path:
    """The native Multitool binary. The npm wrapper runs it through a shell, which splits the
    semicolon lists of ``--rule-kind``/``--level``, so the binary is called directly."""
    if not NODE_PACKAGE.is_dir():
        pytest.fail("SARIF Multitool missing: npm install --prefix .ci/node @microsoft/sarif-multitool"
                    " (.ci/run does it)")
    out = subprocess.run(["node", "-p", "require(process.argv[1])", str(NODE_PACKAGE)],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def schema() -> dict:
    """The SARIF 2.1.0 JSON schema as the Multitool's npm package ships it."""
    return json.loads((multitool().parent / "sarif-2.1.0.json").read_text(encoding="utf-8"))


def validate(log: Path, tmp: Path) -> dict[str, list[str]]:
    """Multitool's verdict on ``log`` (SARIF and GitHub rule sets, JSON schema included):
    ``{level: ["RULE: message", ...]}`` for error, warning and note."""
    tool = multitool()
    out = tmp / f"{log.stem}.validation.sarif"
    proc = subprocess.run(
        [str(tool), "validate", str(log), "--output", str(out), "--log", "ForceOverwrite",
         "--rule-kind", "Sarif;Gh", "--level", "Error;Warning;Note",
         "--json-schema", str(tool.parent / "sarif-2.1.0.json")],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0 and out.is_file(), proc.stdout + proc.stderr
    verdict: dict[str, list[str]] = {"error": [], "warning": [], "note": []}
    for run in json.loads(out.read_text(encoding="utf-8-sig"))["runs"]:
        for result in run.get("results", []):
            message = result["message"].get("text") or " | ".join(result["message"].get("arguments", []))
            verdict[result.get("level", "warning")].append(f"{result['ruleId']}: {message}")
    return verdict


def expected_marks(source: str) -> set[tuple[int, str]]:
    """The ``expect:`` marks of a test input: (line, code) pairs."""
    marks = set()
    for number, line in enumerate(source.splitlines(), start=1):
        m = re.search(r"(?:#|//)\s*expect:\s*([A-Z0-9, ]+)", line)
        if m:
            marks |= {(number, c.strip()) for c in m.group(1).split(",") if c.strip()}
    return marks
