"""Rule pages (``rules/BCxxx-<name>.md``): each rule's documentation and its metadata, kept in
TOML front matter between ``+++`` lines, so the page is the single source for ``boundcheck rule``,
``boundcheck rules`` and SARIF rule descriptions."""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Page:
    code: str
    name: str
    summary: str
    meta: dict[str, object]
    text: str  # the Markdown body
    path: Path

    def section(self, title: str) -> str:
        """The body of a ``## title`` section."""
        out, inside = [], False
        for line in self.text.splitlines():
            if line.startswith("## "):
                inside = line[3:].strip().lower() == title.lower()
                continue
            if inside:
                out.append(line)
        return "\n".join(out).strip()


def pages_dir() -> Path:
    shipped = Path(__file__).parent / "_pages"
    return shipped if shipped.is_dir() else Path(__file__).parent.parent / "rules"


@functools.cache
def all_pages() -> dict[str, Page]:
    pages = {}
    for path in sorted(pages_dir().glob("BC*.md")):
        raw = path.read_text(encoding="utf-8")
        _, front, body = raw.split("+++", 2) if raw.startswith("+++") else ("", "", raw)
        meta = tomllib.loads(front)
        pages[meta["code"]] = Page(meta["code"], meta["name"], meta.get("summary", ""), meta, body.strip(), path)
    return pages


def page_for(code: str) -> Page | None:
    return all_pages().get(code)
