"""Run every CUDA fixture at its family's boundary shapes on the GPU and judge it.

    python -m proofs.cuda_run --out FILE [--only GLOB] [--build DIR] [--jobs N]

Each fixture is compiled for sm_90 and linked with proofs/cuda/driver.cu, then run twice: plainly
(values, canary and unwritten oracles, guard-banded buffers) and under compute-sanitizer memcheck
(exactly sized cudaMalloc buffers). A bad fixture passes if some oracle finds it wrong at one shape
or more; a good fixture passes only if every oracle finds it right at every shape. Exit status 0
when every fixture passes, 1 otherwise. proofs/cuda_gpu.sh is the wrapper the GPU machine runs.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from functools import partial
from pathlib import Path
from typing import Any

from proofs.cuda_build import (
    DRIVER,
    FIXTURES,
    NVCC_FLAGS,
    ROOT,
    Build,
    compile_object,
    cuda_fixtures,
    find_nvcc,
    link,
    object_path,
    parallel,
)
from proofs.cuda_report import Invocation, judge_fixture, parse_listing, passed, run_from_each_stop

# Every shape finishes in seconds even under memcheck; a process past these limits is hung.
PLAIN_TIMEOUT_S = 40
SANITIZER_TIMEOUT_S = 90
SANITIZER_ARGS = ("--tool", "memcheck", "--show-backtrace", "no", "--print-limit", "200")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def find_sanitizer() -> str | None:
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for candidate in ("/usr/local/cuda/bin/compute-sanitizer", "/usr/local/cuda/compute-sanitizer/compute-sanitizer"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def _invoke(cmd: list[str], timeout_s: int, start: int) -> Invocation:
    """Run the driver from shape ``start``; stdout and stderr merged so sanitizer reports land
    between the driver's BEGIN/END lines."""
    try:
        proc = subprocess.run([*cmd, "--from", str(start)], check=False, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout_s)
        return Invocation(proc.stdout, proc.returncode)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or b""
        return Invocation(out.decode(errors="replace") if isinstance(out, bytes) else out, None)


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


def run_fixture(source: Path, build: Build, driver_obj: Path, nvcc: str, sanitizer: str) -> dict[str, Any]:
    rel = source.relative_to(ROOT).as_posix()
    expect = "wrong" if source.name.startswith("bad_") else "right"
    result: dict[str, Any] = {"path": rel, "sha256": sha256(source), "expect": expect}
    if not build.ok:
        return {**result, "family": None, "passed": False, "error": f"compile failed:\n{build.log}", "shapes": []}
    exe = build.output.with_suffix(".bin")
    linked = link(nvcc, [driver_obj, build.output], exe, source)
    if not linked.ok:
        return {**result, "family": None, "passed": False, "error": f"link failed:\n{linked.log}", "shapes": []}
    listing = subprocess.run([str(exe), "--list"], check=False, capture_output=True, text=True)
    family, shapes = parse_listing(listing.stdout)
    if listing.returncode != 0 or not shapes:
        error = f"--list failed:\n{listing.stdout}{listing.stderr}"
        return {**result, "family": family, "passed": False, "error": error, "shapes": []}
    plain, plain_notes = run_from_each_stop(partial(_invoke, [str(exe)], PLAIN_TIMEOUT_S), len(shapes))
    exact, exact_notes = run_from_each_stop(
        partial(_invoke, [sanitizer, *SANITIZER_ARGS, str(exe), "--exact"], SANITIZER_TIMEOUT_S), len(shapes))
    records = judge_fixture(shapes, plain, exact)
    result.update(family=family, passed=passed(expect, records), shapes=records)
    if plain_notes or exact_notes:
        result["notes"] = [f"plain: {n}" for n in plain_notes] + [f"memcheck: {n}" for n in exact_notes]
    return result


def _version_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable: {exc}"
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    return lines[-1] if lines else "unavailable"


def environment(nvcc: str, sanitizer: str, probe: Path | None) -> dict[str, Any]:
    env: dict[str, Any] = {
        "host": platform.node(),
        "python": platform.python_version(),
        "nvcc": _version_line([nvcc, "--version"]),
        "nvcc_flags": " ".join(NVCC_FLAGS),
        "compute_sanitizer": _version_line([sanitizer, "--version"]),
        "sanitizer_args": " ".join(SANITIZER_ARGS),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    if probe is not None:
        info = subprocess.run([str(probe), "--info"], check=False, capture_output=True, text=True).stdout
        for line in info.splitlines():
            key, _, value = line.partition(" ")
            env[{"DEVICE": "device_name", "CAPABILITY": "capability", "DRIVER": "cuda_driver",
                 "RUNTIME": "cuda_runtime"}.get(key, key.lower())] = value
    return env


def _row(result: dict[str, Any]) -> str:
    shown = next((r for r in result["shapes"] if r["verdict"] != "right"), None)
    detail = (f"{shown['label']:<7} {shown['oracle']:<9} {shown['observed']}" if shown
              else result.get("error", "right at every shape").splitlines()[0])
    return f"{'PASS' if result['passed'] else 'FAIL'}  {result['path']:<62} expect {result['expect']:<5}  {detail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="write the results as JSON here")
    parser.add_argument("--only", help="glob on the fixture path relative to fixtures/, e.g. 'BC2*/*gemm*'")
    parser.add_argument("--build", type=Path, help="build directory (default: a fresh temporary one)")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1))
    args = parser.parse_args(argv)
    nvcc, sanitizer = find_nvcc(), find_sanitizer()
    if nvcc is None or sanitizer is None:
        print(f"needs nvcc ({nvcc}) and compute-sanitizer ({sanitizer})", file=sys.stderr)
        return 2
    build_dir = args.build or Path(tempfile.mkdtemp(prefix="boundcheck-cuda-"))
    sources = [p for p in cuda_fixtures()
               if args.only is None or fnmatch.fnmatch(p.relative_to(FIXTURES).as_posix(), args.only)]
    builds = parallel(lambda src: compile_object(nvcc, src, object_path(build_dir, src)), [DRIVER, *sources],
                      max(args.jobs, os.cpu_count() or 1))
    driver = builds[DRIVER]
    if not driver.ok:
        print(f"the driver does not compile:\n{driver.log}", file=sys.stderr)
        return 2
    run = partial(run_fixture, driver_obj=driver.output, nvcc=nvcc, sanitizer=sanitizer)
    report: dict[str, Any] = {"environment": environment(nvcc, sanitizer, None), "fixtures": []}
    results: list[dict[str, Any]] = report["fixtures"]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for future in as_completed([pool.submit(run, src, builds[src]) for src in sources]):
            result = future.result()
            print(_row(result), flush=True)
            results.append(result)
            results.sort(key=lambda r: r["path"])
            if "device_name" not in report["environment"] and result.get("family"):
                probe = object_path(build_dir, ROOT / result["path"]).with_suffix(".bin")
                report["environment"] = environment(nvcc, sanitizer, probe)
            # written after every fixture, so a run cut short by the caller's time limit keeps its evidence
            args.out.write_text(json.dumps(report, indent=1) + "\n")
    failed = [r["path"] for r in results if not r["passed"]]
    print(f"{len(results) - len(failed)}/{len(results)} CUDA fixtures behave as their names say")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
