"""The CUDA proof's parsing and judging, on canned driver and compute-sanitizer output (nothing
CUDA runs here; the GPU run is proofs/cuda_gpu.sh)."""

from __future__ import annotations

from proofs.cuda_report import (
    Invocation,
    ShapeLog,
    json_number,
    judge_fixture,
    parse_listing,
    parse_run,
    passed,
    run_from_each_stop,
)

LISTING = """FAMILY map
SHAPE 0 tile 256
SHAPE 1 tile-1 255
SHAPE 2 tile+1 257
SHAPE 3 prime 1009
SHAPE 4 one 1
SHAPE 5 large 1000003
"""
SHAPES = parse_listing(LISTING)[1]


def _plain(index: int, values: str = "0", canary: int = 0, unwritten: int = 0) -> str:
    label, dims = SHAPES[index]
    return (f"BEGIN {index} {label} {dims}\nRESULT {index} values {values}\nRESULT {index} canary {canary}\n"
            f"RESULT {index} unwritten {unwritten}\nEND {index}\n")


def _exact(index: int) -> str:
    label, dims = SHAPES[index]
    return f"BEGIN {index} {label} {dims}\nEND {index}\n"


MEMCHECK_FAULT = """========= Invalid __global__ write of size 4 bytes
=========     at affine_kernel(const float *, float *, int)+0x90 in bad_map_le.cu:7
=========     by thread (255,0,0) in block (0,0,0)
=========     Address 0x7f3a00000400 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f3a00000000 of size 1020 bytes
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaDeviceSynchronize.
=========
FAULT 1 cudaErrorLaunchFailure
========= Target application returned an error
========= ERROR SUMMARY: 2 errors
"""


def test_listing_gives_family_and_shapes_in_order() -> None:
    family, shapes = parse_listing(LISTING)
    assert family == "map"
    assert shapes[1] == ("tile-1", "255") and len(shapes) == 6


def test_plain_run_results_are_read_per_shape() -> None:
    log = parse_run("FAMILY map\n" + _plain(0) + _plain(1, values="inf", canary=3, unwritten=0) + "DONE\n")
    assert log.done
    assert [s.index for s in log.shapes] == [0, 1]
    assert log.shapes[1].observed == {"values": float("inf"), "canary": 3.0, "unwritten": 0.0}
    assert all(s.ended for s in log.shapes)


def test_memcheck_reports_go_to_the_shape_they_interrupt() -> None:
    text = ("========= COMPUTE-SANITIZER\nFAMILY map\n" + _exact(0)
            + "BEGIN 1 tile-1 255\n" + MEMCHECK_FAULT)
    log = parse_run(text)
    assert not log.done
    assert [s.sanitizer_errors for s in log.shapes] == [0, 2]
    assert log.shapes[1].fault == "cudaErrorLaunchFailure" and not log.shapes[1].ended


def test_summary_errors_not_recognised_line_by_line_still_count() -> None:
    text = "FAMILY map\n" + _exact(0) + "BEGIN 1 tile-1 255\n========= Some new kind of report\n" \
           "END 1\n========= ERROR SUMMARY: 1 error\n"
    log = parse_run(text)
    assert [s.sanitizer_errors for s in log.shapes] == [0, 1]


def test_runs_restart_after_the_shape_that_stopped_a_process() -> None:
    calls: list[int] = []

    def invoke(start: int) -> Invocation:
        calls.append(start)
        if start == 0:
            return Invocation("FAMILY map\n" + _exact(0) + "BEGIN 1 tile-1 255\n" + MEMCHECK_FAULT, 3)
        return Invocation("FAMILY map\n" + "".join(_exact(i) for i in range(start, 6))
                          + "DONE\n========= ERROR SUMMARY: 0 errors\n", 0)

    shapes, notes = run_from_each_stop(invoke, 6)
    assert calls == [0, 2]
    assert [s.index for s in shapes] == list(range(6))
    assert [s.sanitizer_errors for s in shapes] == [0, 2, 0, 0, 0, 0]
    assert notes == []


def test_a_silent_death_is_a_fault_of_that_shape_and_the_run_goes_on() -> None:
    def invoke(start: int) -> Invocation:
        if start == 0:
            return Invocation("FAMILY map\n" + _plain(0) + _plain(1), -11)  # died between shapes
        if start == 2:
            return Invocation("", -11)  # died before saying anything
        return Invocation("FAMILY map\n" + "".join(_plain(i) for i in range(start, 6)) + "DONE\n", 0)

    plain, notes = run_from_each_stop(invoke, 6)
    records = judge_fixture(SHAPES, plain, [])
    assert [r["all"]["fault"] for r in records] == [0, 0, 1, 0, 0, 0]
    assert records[2]["verdict"] == "wrong" and records[2]["oracle"] == "fault"
    assert [i for i, r in enumerate(records) if r["verdict"] == "incomplete"] == [0, 1, 3, 4, 5]  # no memcheck run
    assert notes == ["shape 2: no shape begun (exit -11, None)"]


def test_a_timeout_is_a_fault_and_ends_the_run() -> None:
    calls: list[int] = []

    def invoke(start: int) -> Invocation:
        calls.append(start)
        return Invocation("FAMILY map\n" + _plain(0) + "BEGIN 1 tile-1 255\n", None)  # hung in shape 1

    plain, notes = run_from_each_stop(invoke, 6)
    records = judge_fixture(SHAPES, plain, [])
    assert calls == [0]
    assert records[1]["verdict"] == "wrong" and records[1]["notes"] == ["plain run: timeout"]
    assert all(r["verdict"] == "incomplete" and "values" in r["missing"] for r in records[2:])
    assert notes == ["shape 1: timeout", "shapes 2..5: not run after the timeout"]


def _both(plain_text: str, exact_text: str) -> list[dict]:
    return judge_fixture(SHAPES, parse_run(plain_text).shapes, parse_run(exact_text).shapes)


def test_a_clean_fixture_is_right_at_every_shape_and_passes_only_as_good() -> None:
    records = _both("".join(_plain(i) for i in range(6)) + "DONE\n",
                    "".join(_exact(i) for i in range(6)) + "DONE\n========= ERROR SUMMARY: 0 errors\n")
    assert [r["verdict"] for r in records] == ["right"] * 6
    assert records[0]["all"] == {"values": 0, "canary": 0, "unwritten": 0, "sanitizer": 0, "fault": 0}
    assert passed("right", records) and not passed("wrong", records)


def test_each_oracle_alone_makes_a_shape_wrong() -> None:
    plain = (_plain(0, values="0.0009765625") + _plain(1, values="nan") + _plain(2, canary=1)
             + _plain(3, unwritten=17) + _plain(4) + _plain(5) + "DONE\n")
    exact = "".join(_exact(i) for i in range(4)) + "BEGIN 4 one 1\n" + MEMCHECK_FAULT.replace("FAULT 1", "FAULT 4")
    records = judge_fixture(SHAPES, parse_run(plain).shapes, parse_run(exact).shapes)
    assert [(r["verdict"], r["oracle"]) for r in records[:5]] == [
        ("right", "values"), ("wrong", "values"), ("wrong", "canary"), ("wrong", "unwritten"),
        ("wrong", "sanitizer")]
    assert records[1]["observed"] == "nan"
    assert records[4]["observed"] == 2 and records[4]["all"]["fault"] == 0  # memcheck's own stop
    assert passed("wrong", records) and not passed("right", records)


def test_a_shape_with_no_observation_is_incomplete_not_right() -> None:
    records = judge_fixture(SHAPES, [ShapeLog(0, "tile", "256", observed={"values": 0.0})], [])
    assert records[0]["verdict"] == "incomplete"
    assert set(records[0]["missing"]) == {"canary", "unwritten", "sanitizer"}
    assert not passed("right", records)


def test_json_numbers_stay_valid_json() -> None:
    assert json_number(float("inf")) == "inf"
    assert json_number(float("nan")) == "nan"
    assert json_number(3.0) == 3 and json_number(0.5) == 0.5
