"""Machine-readable output: one object per finding, suppressed ones included and marked."""

from __future__ import annotations

import json

from boundcheck.findings import Finding


def to_dict(f: Finding) -> dict[str, object]:
    return {
        "code": f.code,
        "name": f.name,
        "message": f.message,
        "filename": f.path,
        "kernel": f.kernel,
        "location": {"row": f.span.line, "column": f.span.col + 1},
        "end_location": {"row": f.span.end_line, "column": f.span.end_col + 1},
        "fix": None if f.fix is None else {
            "message": f.fix.message,
            "applicability": "safe" if f.fix.safe else "unsafe",
            "edits": [{"location": {"row": e.span.line, "column": e.span.col + 1},
                       "end_location": {"row": e.span.end_line, "column": e.span.end_col + 1},
                       "content": e.text} for e in f.fix.edits],
        },
        "suppressed": f.suppressed_by,
        "related": [{"location": {"row": s.line, "column": s.col + 1},
                     "end_location": {"row": s.end_line, "column": s.end_col + 1}, "message": note}
                    for s, note in f.related],
    }


def render(findings: list[Finding]) -> str:
    return json.dumps([to_dict(f) for f in findings], indent=2)
