"""What boundcheck reports on a test's own kernel text (or on a tree of files a test writes), as
sorted (line, code) pairs, and the line of a snippet in it: the helpers the frontend and rule
tests share."""

from __future__ import annotations

from pathlib import Path

from boundcheck.engine import check_paths, check_source
from boundcheck.model import Language
from boundcheck.settings import Settings


def findings(src: str, language: Language = Language.TRITON, path: str | None = None) -> list[tuple[int, str]]:
    path = path or ("k.py" if language is Language.TRITON else "k.cu")
    found, _ = check_source(path, language, src, Settings())
    return sorted((f.span.line, f.code) for f in found)


def line_of(src: str, text: str) -> int:
    return next(i for i, line in enumerate(src.splitlines(), start=1) if text in line)


def at(src: str, text: str, *codes: str) -> list[tuple[int, str]]:
    """The (line, code) pairs expected on the line of ``src`` holding ``text``, one per code given."""
    line = line_of(src, text)
    return [(line, code) for code in codes]


# A Triton kernel copying one unmasked tile per program: whole tiles only where N is a multiple of
# BLOCK, so a test reads whether a host fact makes it so (its decorators written before it).
COPY_KERNEL = '''\
@triton.jit
def copy(x, y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs))
'''


def run_tree(root: Path, files: dict[str, str], only: str | None = None, jobs: int = 1) -> list[tuple[str, int, str]]:
    """Write ``files`` under ``root`` and check the tree (or the one file ``only``) as a directory
    run does: (file name, line, code) of every finding."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    found = check_paths([str(root / only) if only else str(root)], Settings(jobs=jobs))
    return sorted((Path(f.path).name, f.span.line, f.code) for f in found)
