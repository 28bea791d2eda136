"""A zero padding moved by a runtime scalar before a sum (``sum((x - mean) ** 2)``): the layer-norm
bug that Liger-Kernel (f4a51fb) and unsloth (8180e98) fixed. Paired with the re-masked twin and
with shapes where the shift does no harm, and the finding's related places are asserted."""

from __future__ import annotations

import json

from boundcheck.engine import check_source
from boundcheck.model import Language
from boundcheck.reporters import sarif
from boundcheck.settings import Settings
from tests.checking import findings, line_of

LAYER_NORM = """\
import triton
import triton.language as tl


@triton.jit
def layer_norm(x_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    xc = {centred}
    var = tl.sum(xc * xc, axis=0) / n_cols
    y = xc * tl.rsqrt(var + eps)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)
"""


def test_a_centred_zero_padding_summed_is_reported_at_the_load() -> None:
    src = LAYER_NORM.format(centred="x - mean")
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC202")]


def test_the_finding_names_the_shift_and_the_sum() -> None:
    src = LAYER_NORM.format(centred="x - mean")
    (f,), _ = check_source("k.py", Language.TRITON, src, Settings())
    assert "shifts by `mean`" in f.message and "tl.where(mask, x - mean, 0.0)" in f.message
    assert [(s.line, note) for s, note in f.related] == [
        (line_of(src, "var = tl.sum"), "the sum the padding reaches"),
        (line_of(src, "xc = x - mean"), "where the padding is shifted by `mean`")]
    result = json.loads(sarif.render([f]))["runs"][0]["results"][0]
    assert [r["physicalLocation"]["region"]["startLine"] for r in result["relatedLocations"]] == [
        line_of(src, "var = tl.sum"), line_of(src, "xc = x - mean")]


def test_masked_again_after_the_shift_is_clean() -> None:
    assert findings(LAYER_NORM.format(centred="tl.where(mask, x - mean, 0.0)")) == []


def test_a_shift_times_data_padded_with_zero_is_zero_again() -> None:
    """The backward pass: ``x_hat * (w * dy)`` with dy padded with zero on the same lanes."""
    src = LAYER_NORM.format(centred="x - mean").replace(
        "    var = tl.sum(xc * xc, axis=0) / n_cols\n",
        "    dy = tl.load(y_ptr + row * n_cols + cols, mask=mask, other=0.0)\n"
        "    var = tl.sum(xc * dy, axis=0) / n_cols\n")
    assert findings(src) == []


def test_a_shift_by_a_row_of_a_two_dimensional_tile_is_no_scalar() -> None:
    """``b - tl.sum(b, axis=1, keep_dims=True)``: each row moves by its own sum, zero on padded rows."""
    src = """\
import triton
import triton.language as tl


@triton.jit
def centre_rows(b_ptr, o_ptr, T, V, BT: tl.constexpr, BV: tl.constexpr):
    o_t = tl.program_id(0) * BT + tl.arange(0, BT)
    o_v = tl.arange(0, BV)
    m = (o_t < T)[:, None] & (o_v < V)[None, :]
    b = tl.load(b_ptr + o_t[:, None] * V + o_v[None, :], mask=m, other=0.0)
    c = b - tl.sum(b, axis=1, keep_dims=True)
    tl.store(o_ptr + o_v, tl.sum(c, axis=0), mask=o_v < V)
"""
    assert findings(src) == []


def _launched(head_dim: int) -> str:
    return LAYER_NORM.format(centred="x - mean") + f"""

def norm(x, y):
    layer_norm[(x.shape[0],)](x, y, {head_dim}, 1e-5, BLOCK=128)
"""


def test_a_mask_every_launch_fills_pads_no_lane() -> None:
    """``n_cols=128, BLOCK=128`` at the only launch: no lane is masked, so none is padded."""
    assert findings(_launched(128)) == []


def test_a_launch_with_a_smaller_row_pads_lanes() -> None:
    src = _launched(96)
    assert findings(src) == [(line_of(src, "x = tl.load"), "BC202")]



def test_the_text_and_json_reports_list_the_related_places(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from boundcheck.reporters import json as json_report
    from boundcheck.reporters import text

    src = LAYER_NORM.format(centred="x - mean")
    path = tmp_path / "k.py"
    path.write_text(src)
    found, _ = check_source(str(path), Language.TRITON, src, Settings())
    shown = text.render(found).splitlines()
    assert f"   = note: line {line_of(src, 'var = tl.sum')}: the sum the padding reaches" in shown
    assert f"   = note: line {line_of(src, 'xc = x - mean')}: where the padding is shifted by `mean`" in shown
    row = json.loads(json_report.render(found))[0]
    assert [(r["location"]["row"], r["message"]) for r in row["related"]] == [
        (line_of(src, "var = tl.sum"), "the sum the padding reaches"),
        (line_of(src, "xc = x - mean"), "where the padding is shifted by `mean`")]
