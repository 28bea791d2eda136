"""Every CUDA fixture compiles with nvcc for the GPU the proof runs on (sm_90) and links with the
proof driver as exactly one launch family. CI has nvcc but no GPU, so this is the part of the CUDA
proof that CI can check; the runs themselves are proofs/cuda_gpu.sh."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from proofs.cuda_build import (
    DRIVER,
    ROOT,
    Build,
    compile_object,
    cuda_fixtures,
    find_nvcc,
    link,
    object_path,
    parallel,
)

NVCC = find_nvcc()
FIXTURES = cuda_fixtures()
# CI machines have nvcc (/usr/local/bin/nvcc): there a missing compiler is a failure, not a skip.
pytestmark = pytest.mark.skipif(NVCC is None and not os.environ.get("CI"),
                                reason="nvcc not found (CI has it at /usr/local/bin/nvcc)")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, Build]:
    out = tmp_path_factory.mktemp("cuda")
    jobs = min(4, os.cpu_count() or 2)
    return parallel(lambda src: compile_object(NVCC, src, object_path(out, src)), [DRIVER, *FIXTURES], jobs)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _failure(build: Build) -> str:
    return f"nvcc failed on {_rel(build.source)} (exit {build.returncode}):\n{build.log}"


def test_nvcc_found() -> None:
    assert NVCC is not None, "nvcc is not on PATH: the CUDA fixtures cannot be compiled"


def test_fixtures_exist() -> None:
    assert FIXTURES, "no fixtures/BC*/bad_*.cu or good_*.cu found"


def test_driver_compiles(builds: dict[Path, Build]) -> None:
    build = builds[DRIVER]
    assert build.ok, _failure(build)
    assert "warning" not in build.log, build.log


@pytest.mark.parametrize("source", FIXTURES, ids=_rel)
def test_fixture_compiles_cleanly(builds: dict[Path, Build], source: Path) -> None:
    build = builds[source]
    assert build.ok, _failure(build)
    assert "warning" not in build.log, f"nvcc warned on {_rel(source)}:\n{build.log}"


@pytest.mark.parametrize("source", FIXTURES, ids=_rel)
def test_fixture_links_as_one_family(builds: dict[Path, Build], source: Path) -> None:
    """The driver finds the family by which weak launch_<family> symbol the fixture defines."""
    driver, fixture = builds[DRIVER], builds[source]
    if not (driver.ok and fixture.ok):
        pytest.fail("needs the driver and the fixture to compile (see the compile tests)")
    exe = fixture.output.with_suffix(".bin")
    linked = link(NVCC, [driver.output, fixture.output], exe, source)
    assert linked.ok, f"linking {_rel(source)} with the driver failed:\n{linked.log}"
    listing = subprocess.run([str(exe), "--list"], check=False, capture_output=True, text=True)
    assert listing.returncode == 0, f"{_rel(source)}: {listing.stdout}{listing.stderr}"
    family = listing.stdout.splitlines()[0].split()
    assert family[0] == "FAMILY" and family[1] != "none", listing.stdout
    assert sum(line.startswith("SHAPE ") for line in listing.stdout.splitlines()) == 6, listing.stdout
