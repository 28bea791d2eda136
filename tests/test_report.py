"""`boundcheck report`: the per-kernel boundary report on the seed GEMM fixtures, its JSON schema,
kernel selection and its errors."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from boundcheck.cli import app

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
MN_ONLY = FIXTURES / "BC103-partial-guard" / "bad_gemm_mn_only.py"
CONTRACT = FIXTURES / "BC101-unguarded-load" / "good_gemm_contract.py"
CUDA_UNGUARDED = FIXTURES / "BC101-unguarded-load" / "bad_gemm_tiled.cu"
CUDA_UNPADDED = FIXTURES / "BC201-undefined-padding" / "bad_gemm_unpadded.cu"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["report", *args])
    return result.exit_code, result.stdout, result.stderr


def _json(target: Path | str) -> dict:
    code, out, _ = _run(str(target), "--output-format", "json")
    assert code == 0
    return json.loads(out)


def _dims(kernel: dict) -> dict[tuple[str, str], dict]:
    return {(d["label"], d["tiling"]): d for d in kernel["dimensions"]}


def _protection(dim: dict) -> dict[str, tuple[str, list[str]]]:
    return {f"{a['kind']} {a['buffer']}": (a["status"], [p["kind"] for p in a["protection"]])
            for a in dim["accesses"]}


def test_triton_gemm_guarded_on_m_and_n_only() -> None:
    (kernel,) = _json(MN_ONLY)["kernels"]
    assert kernel["name"] == "matmul_kernel"
    dims = _dims(kernel)
    assert set(dims) == {("offs_m", "program"), ("offs_n", "program"), ("offs_k", "loop")}
    m, k = dims[("offs_m", "program")], dims[("offs_k", "loop")]
    assert (m["extent"], m["extent_from"], m["tile"]) == ("M", "guard", "BLOCK_M")
    assert m["tile_count"] == "cdiv(M, BLOCK_M)"
    assert m["last_tile"] == "M - (cdiv(M, BLOCK_M) - 1) * BLOCK_M"
    assert _protection(m) == {"read a_ptr": ("protected", ["mask"]), "write c_ptr": ("protected", ["mask"])}
    read_a = m["accesses"][0]
    assert read_a["protection"][0]["text"] == "offs_m[:, None] < M"
    assert read_a["padding"] == {"value": "0.0", "undefined": False, "stale": False}
    assert [(u["reduction"], u["is_identity"]) for u in read_a["uses"]] == [("dot", True)]
    # K is never bounded: its extent comes from the loop header, both reads are unprotected
    assert (k["extent"], k["extent_from"], k["tile"], k["loop_line"]) == ("K", "loop header", "BLOCK_K", 15)
    assert _protection(k) == {"read a_ptr": ("UNPROTECTED", []), "read b_ptr": ("UNPROTECTED", [])}
    assert [a["padding"] for a in k["accesses"]] == [None, None]
    assert [(s["condition"], s["code"], s["line"]) for s in kernel["unsupported"]] == [
        ("K % BLOCK_K != 0", "BC103", 17), ("K % BLOCK_K != 0", "BC103", 18)]
    assert kernel["contracts"] == []
    assert [(lp["line"], lp["trip"]) for lp in kernel["loops"]] == [(15, "ceil")]
    assert [la["line"] for la in kernel["launches"]] == [28]


def test_triton_gemm_with_host_contracts() -> None:
    (kernel,) = _json(CONTRACT)["kernels"]
    dims = _dims(kernel)
    k = dims[("offs_k", "loop")]
    assert (k["extent"], k["extent_from"], k["tile_count"], k["last_tile"], k["last_tile_full"]) == \
        ("K", "contract", "K / BLOCK_K", "BLOCK_K", True)
    for dim in dims.values():
        for access in dim["accesses"]:
            assert access["status"] == "protected"
            assert [p["kind"] for p in access["protection"]] == ["contract"]
            assert access["protection"][0]["text"].endswith("(host assert)")
    assert {c["text"] for c in kernel["contracts"]} >= {
        "assumes M % BLOCK_M == 0 (host assert)", "assumes N % BLOCK_N == 0 (host assert)",
        "assumes K % BLOCK_K == 0 (host assert)"}
    assert kernel["unsupported"] == []
    (launch,) = kernel["launches"]
    grid = {g["text"]: g["contract"]["origin"] for g in launch["floor_grid"]}
    assert grid["M // BLOCK_M"] == "host assert"


def test_cuda_gemm_dimensions_split_by_how_a_lane_moves() -> None:
    (kernel,) = _json(CUDA_UNPADDED)["kernels"]
    dims = {(d["label"], d["tiling"]): d for d in kernel["dimensions"]}
    assert {key: d["extent"] for key, d in dims.items()} == {
        ("threadIdx.y", "program"): "M", ("threadIdx.x", "loop"): "K",
        ("threadIdx.y", "loop"): "K", ("threadIdx.x", "program"): "N"}
    assert all(d["tile"] == "TILE" for d in dims.values())
    assert _protection(dims[("threadIdx.x", "program")]) == {
        "read B": ("protected", ["guard"]), "write C": ("protected", ["guard"])}
    stale = {a["buffer"]: a for a in kernel["shared"]}
    assert set(stale) == {"As", "Bs"}
    assert stale["As"]["padding"]["stale"] is True
    assert [(u["reduction"], u["is_identity"]) for u in stale["As"]["uses"]] == [("dot", False)]
    assert [(s["condition"], s["code"], s["line"]) for s in kernel["unsupported"]] == [
        ("M % TILE != 0 or K % TILE != 0", "BC201", 20), ("K % TILE != 0 or N % TILE != 0", "BC201", 23)]


def test_cuda_unguarded_gemm_text() -> None:
    code, out, _ = _run(str(CUDA_UNGUARDED))
    assert code == 0
    assert "kernel gemm_tiled" in out
    assert "read   A (line 16): UNPROTECTED" in out
    assert "write  C (line 24): UNPROTECTED" in out
    assert "extent:     K (from the loop header)" in out
    assert "extent(threadIdx.y) % TILE != 0 or K % TILE != 0 (BC101 at line 16:" in out
    assert "(BC102 at line 24:" in out
    assert "line 15: trip ceil: for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {" in out


def test_triton_text_names_the_unsupported_shape_and_padding() -> None:
    code, out, _ = _run(str(MN_ONLY))
    assert code == 0
    assert "dimension offs_k (tile BLOCK_K, loop: tiles walked by the loop at line 15)" in out
    assert "last tile:  K - (cdiv(K, BLOCK_K) - 1) * BLOCK_K = K % BLOCK_K, or BLOCK_K when that is 0" in out
    assert "read   a_ptr (line 17): mask `offs_m[:, None] < M`" in out
    assert "padding 0.0 -> dot at line 19" in out
    assert "K % BLOCK_K != 0 (BC103 at line 17: read of a_ptr is bounded along offs_m" in out
    code, out, _ = _run(str(CONTRACT))
    assert "read   a_ptr (line 28): contract: M % BLOCK_M == 0 (host assert)" in out
    assert "assumes K % BLOCK_K == 0 (host assert)" in out
    assert "unsupported shapes:\n    none found" in out


def test_padding_that_is_not_the_identity_is_marked() -> None:
    (kernel,) = _json(FIXTURES / "BC202-padding-not-identity" / "bad_rowmax_zero.py")["kernels"]
    uses = [u for d in kernel["dimensions"] for a in d["accesses"] for u in a["uses"]]
    assert [(u["reduction"], u["padding"], u["is_identity"]) for u in uses] == [("max", "0.0", False)]
    assert [s["code"] for s in kernel["unsupported"]] == ["BC202"]
    _, out, _ = _run(str(FIXTURES / "BC202-padding-not-identity" / "bad_rowmax_zero.py"))
    assert "[NOT the identity -inf]" in out


def test_json_schema_keys_and_help() -> None:
    data = _json(MN_ONLY)
    assert set(data) == {"schema", "file", "language", "kernels"}
    assert (data["schema"], data["language"]) == ("boundcheck-report/1", "triton")
    (kernel,) = data["kernels"]
    assert set(kernel) == {"name", "line", "dimensions", "shared", "loops", "launches", "contracts", "unsupported"}
    dim = kernel["dimensions"][0]
    assert set(dim) == {"label", "source", "tiling", "loop_line", "tile", "extent", "extent_from",
                        "other_extents", "tile_count", "last_tile", "last_tile_full", "accesses"}
    assert set(dim["accesses"][0]) == {"buffer", "kind", "line", "axis", "status", "protection", "padding", "uses"}
    assert set(dim["accesses"][0]["protection"][0]) == {"kind", "text", "line"}
    assert set(dim["accesses"][0]["uses"][0]) == {"reduction", "identity", "padding", "via", "line", "is_identity"}
    assert set(kernel["loops"][0]) == {"line", "end_line", "var", "header", "trip", "floor_division"}
    assert set(kernel["launches"][0]) == {"line", "text", "floor_grid"}
    assert set(kernel["unsupported"][0]) == {"condition", "code", "name", "line", "message", "suppressed_by"}
    contract = _json(CONTRACT)["kernels"][0]
    assert set(contract["contracts"][0]) == {"extent", "tile", "origin", "text"}
    assert set(contract["launches"][0]["floor_grid"][0]) == {"text", "extent", "tile", "line", "contract"}
    assert _json(CUDA_UNPADDED)["language"] == "cuda"
    _, help_text, _ = _run("--help")
    for key in ("boundcheck-report/1", "extent_from", "last_tile_full", "is_identity", "floor_grid",
                "suppressed_by", "UNPROTECTED"):
        assert key in help_text


def test_kernel_selection(tmp_path: Path) -> None:
    source = MN_ONLY.read_text(encoding="utf-8")
    second = source.split("@triton.jit")[1].split("\n\ndef launch")[0].replace("matmul_kernel", "other_kernel")
    path = tmp_path / "two.py"
    path.write_text(source + "\n\n@triton.jit" + second + "\n", encoding="utf-8")
    assert [k["name"] for k in _json(path)["kernels"]] == ["matmul_kernel", "other_kernel"]
    assert [k["name"] for k in _json(f"{path}::other_kernel")["kernels"]] == ["other_kernel"]
    code, out, err = _run(f"{path}::nope")
    assert code == 2 and out == ""
    assert "no kernel `nope`" in err and "matmul_kernel, other_kernel" in err


def test_errors_exit_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import triton\n@triton.jit\ndef k(x:\n", encoding="utf-8")
    code, out, err = _run(str(broken))
    assert (code, out) == (2, "")
    assert "BC001" in err
    code, _, err = _run(str(tmp_path / "missing.cu"))
    assert code == 2 and "no such file" in err
    code, _, err = _run(str(MN_ONLY), "--output-format", "sarif")
    assert code == 2 and "text or json" in err
