"""Run every Triton fixture at every boundary shape and judge it.

    python -m proofs.triton_run [--device cpu|cuda] [--out FILE] [--only GLOB]

On cpu, TRITON_INTERPRET=1 is set before triton is imported. A bad fixture passes if some
oracle finds it wrong at one shape or more; a good fixture passes only if every oracle finds it
right at every shape. A shape whose launch raises is recorded as an error: it proves nothing
for a bad fixture and fails a good one. Exit status 0 when every fixture passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import hashlib
import importlib.util
import json
import os
import platform
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SEED = 20260


def fixture_files() -> list[Path]:
    """Every Triton fixture file (bad_*.py / good_*.py under fixtures/<rule>/)."""
    return sorted(p for p in FIXTURES.glob("BC*/*.py") if p.name.startswith(("bad_", "good_")))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _load(path: Path) -> ModuleType:
    name = "proof_fixture_" + hashlib.md5(str(path).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # triton resolves helper jit functions through the module
    spec.loader.exec_module(module)
    return module


def _environment(device: str) -> dict[str, Any]:
    import numpy
    import torch
    import triton

    env = {
        "device": device,
        "interpreter": device == "cpu",
        "python": platform.python_version(),
        "torch": torch.__version__,
        "triton": triton.__version__,
        "numpy": numpy.__version__,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    if device == "cuda":
        env["device_name"] = torch.cuda.get_device_name(0)
        env["cuda"] = torch.version.cuda
    else:
        env["device_name"] = platform.processor() or platform.machine()
    return env


def _json_number(x: float) -> float | str:
    return x if x == x and abs(x) != float("inf") else str(x)


def run_fixture(path: Path, device: str) -> dict[str, Any]:
    """Run one fixture at its case's shapes; the per-shape record and the pass verdict."""
    import torch

    from proofs.guarded import ORACLES, GuardedOutput, guarded_input, is_wrong
    from proofs.triton_cases import CASES, KINDS

    rel = path.relative_to(FIXTURES).as_posix()
    case = CASES[rel]
    kind = KINDS[case.kind]
    module = _load(path)
    expect = "wrong" if path.name.startswith("bad_") else "right"
    records = []
    for label, shape in case.shapes(device):
        gen = torch.Generator().manual_seed(SEED)
        # the reference sees exactly the float32 values the kernel sees
        ins64 = {k: v.float().double() for k, v in kind.inputs(shape, gen).items()}
        ref = kind.reference(ins64)
        band = kind.band(shape, case.tiles)
        ins = {k: guarded_input(v, band, device) for k, v in ins64.items()}
        outs = {k: GuardedOutput.allocate(tuple(v.shape), band, device) for k, v in ref.items()}
        try:
            module.launch(*ins.values(), *(o.view for o in outs.values()))
            if device == "cuda":
                torch.cuda.synchronize()
        except Exception as exc:  # recorded, not raised: the other shapes and fixtures still run
            records.append({"label": label, "shape": shape, "oracle": "error",
                            "observed": f"{type(exc).__name__}: {exc}"[:500], "verdict": "error"})
            continue
        observed: dict[str, float] = {o: 0 for o in ORACLES}
        tolerance = 0.0
        for name, out in outs.items():
            scale = float(ref[name].abs().max()) if ref[name].numel() else 0.0
            tolerance = max(tolerance, kind.atol + kind.rtol * scale)
            for oracle, value in out.measure(ref[name]).items():
                observed[oracle] = max(observed[oracle], value)
        wrong = [o for o in ORACLES if is_wrong(o, observed[o], tolerance)]
        shown = case.oracle if case.oracle in wrong or not wrong else wrong[0]
        records.append({
            "label": label,
            "shape": shape,
            "oracle": shown,
            "observed": _json_number(observed[shown]),
            "verdict": "wrong" if wrong else "right",
            "all": {o: _json_number(v) for o, v in observed.items()},
            "tolerance": tolerance,
        })
    verdicts = [r["verdict"] for r in records]
    passed = "wrong" in verdicts if expect == "wrong" else all(v == "right" for v in verdicts)
    return {
        "path": f"fixtures/{rel}",
        "sha256": sha256(path),
        "kind": case.kind,
        "tiles": case.tiles,
        "case_oracle": case.oracle,
        "contract": case.contract.text if case.contract else None,
        "note": case.note,
        "expect": expect,
        "passed": passed,
        "shapes": records,
    }


def _row(result: dict[str, Any]) -> str:
    worst = max(result["shapes"], key=_severity)
    wrong = sum(r["verdict"] == "wrong" for r in result["shapes"])
    return (f"{'PASS' if result['passed'] else 'FAIL'}  {result['path']:<58} expect {result['expect']:<5}  "
            f"wrong {wrong}/{len(result['shapes'])}  worst {worst['label']:<11} {worst['oracle']:<10} "
            f"{worst['observed']}")


def _severity(record: dict[str, Any]) -> tuple[int, float]:
    """Errors first, then wrong shapes by observed number ("inf" strings parse as floats)."""
    if record["verdict"] == "error":
        return (2, 0.0)
    return (int(record["verdict"] == "wrong"), float(record["observed"]))


def _check_interpreter() -> None:
    """triton 3.6's interpreter calls int() on 1-element arrays, which numpy >= 2.4 refuses."""
    import numpy
    import triton

    numpy_version = tuple(int(p) for p in numpy.__version__.split(".")[:2])
    if triton.__version__.startswith("3.6.") and numpy_version >= (2, 4):
        raise SystemExit(
            f"triton {triton.__version__}'s interpreter fails on loops with runtime bounds under "
            f"numpy {numpy.__version__} (TypeError: only 0-dimensional arrays can be converted to "
            "Python scalars); install numpy<2.4 for the CPU proof")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    parser.add_argument("--only", help="glob on the fixture path relative to fixtures/, e.g. 'BC103-*/*gemm*'")
    args = parser.parse_args(argv)
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"
        _check_interpreter()
    paths = [p for p in fixture_files()
             if args.only is None or fnmatch.fnmatch(p.relative_to(FIXTURES).as_posix(), args.only)]
    results = []
    for path in paths:
        result = run_fixture(path, args.device)
        print(_row(result), flush=True)
        results.append(result)
    report = {"environment": _environment(args.device), "fixtures": results}
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    failed = [r["path"] for r in results if not r["passed"]]
    print(f"{len(results) - len(failed)}/{len(results)} fixtures behave as their names say")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
