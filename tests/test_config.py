"""Configuration files: where they are found, what they may say, and how the command line wins."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundcheck import config
from boundcheck.cli import app
from boundcheck.engine import selected_rules
from boundcheck.settings import Settings

PLAIN = "x = 1\n"  # a Python file with no kernel: checked without a frontend

UNMASKED = '''\
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.store(y_ptr + offs, x, mask=offs < n)
'''


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def _codes(settings: Settings) -> list[str]:
    return [r.code for r in selected_rules(settings)]


def _merged(paths: list[str], **cli: list[str]) -> Settings:
    """What the command line builds: the file's settings with the flags on top."""
    return config.merge(config.load(paths), Settings(**cli), preview=None, jobs=0, respect_gitignore=None)


# --- Finding the file ---------------------------------------------------------------------------

def test_pyproject_table_found_walking_up_from_a_file(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", """\
        [project]
        name = "kernels"

        [tool.boundcheck]
        select = ["BC1"]
        ignore = ["BC104"]
        extend-select = ["BC201"]
        per-file-ignores = {"tests/*.py" = ["BC101"]}
        exclude = ["generated"]
        preview = true
        cuda-args = ["-DTILE=32", "-Iinclude"]
        """)
    source = _write(tmp_path / "pkg" / "deep" / "k.py", PLAIN)
    settings = config.load([str(source)])
    assert settings.select == ["BC1"] and settings.ignore == ["BC104"] and settings.extend_select == ["BC201"]
    assert settings.per_file_ignores == {"tests/*.py": ["BC101"]}
    assert settings.exclude == ["generated"] and settings.preview is True
    assert settings.cuda_args == ["-DTILE=32", "-Iinclude"]


def test_boundcheck_toml_found_from_a_directory(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC3"]\n')
    (tmp_path / "src").mkdir()
    assert config.load([str(tmp_path / "src")]).ignore == ["BC3"]


def test_boundcheck_toml_wins_over_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", '[tool.boundcheck]\nignore = ["BC101"]\n')
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC102"]\n')
    assert config.load([str(tmp_path)]).ignore == ["BC102"]


def test_nearest_file_wins(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC101"]\n')
    _write(tmp_path / "sub" / "pyproject.toml", '[tool.boundcheck]\nignore = ["BC102"]\n')
    source = _write(tmp_path / "sub" / "k.py", PLAIN)
    assert config.load([str(source)]).ignore == ["BC102"]


def test_pyproject_without_our_table_is_passed_over(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC101"]\n')
    _write(tmp_path / "sub" / "pyproject.toml", '[tool.ruff]\nline-length = 100\n# tool.boundcheck is not used\n')
    assert config.load([str(tmp_path / "sub")]).ignore == ["BC101"]


def test_explicit_config_is_used_instead_of_the_nearest(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC101"]\n')
    other = _write(tmp_path / "elsewhere" / "strict.toml", 'select = ["ALL"]\n')
    assert config.load([str(tmp_path)], other).select == ["ALL"]


def test_no_file_means_defaults(tmp_path: Path) -> None:
    assert config.load([str(_write(tmp_path / "k.py", PLAIN))]) == Settings()


# --- Selection and the command line -------------------------------------------------------------

def test_file_selection_reaches_the_rules(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'select = ["BC1"]\nignore = ["BC104"]\nextend-select = ["BC201"]\n')
    assert _codes(_merged([str(tmp_path)])) == ["BC101", "BC102", "BC103", "BC105", "BC106", "BC201"]


def test_cli_select_replaces_the_files_selection(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'select = ["BC1"]\nignore = ["BC104"]\n')
    assert _codes(_merged([str(tmp_path)], select=["BC104", "BC3"])) == ["BC104", "BC301", "BC302", "BC303"]


def test_cli_ignore_adds_to_the_files_ignore(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'select = ["BC1"]\nignore = ["BC104"]\n')
    assert _codes(_merged([str(tmp_path)], ignore=["BC101"])) == ["BC102", "BC103", "BC105", "BC106"]


def test_cli_extend_select_re_enables_what_the_file_ignores(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC1"]\n')
    codes = _codes(_merged([str(tmp_path)], extend_select=["BC104"]))
    assert "BC104" in codes and "BC101" not in codes and "BC201" in codes


def test_ignoring_everything_selects_nothing(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'ignore = ["ALL"]\n')
    assert _codes(_merged([str(tmp_path)])) == []


def test_cli_scalars_and_lists_override_the_file(tmp_path: Path) -> None:
    _write(tmp_path / "boundcheck.toml", 'preview = true\nexclude = ["a"]\ncuda-args = ["-Iinc"]\njobs = 3\n')
    settings = config.merge(config.load([str(tmp_path)]), Settings(exclude=["b"], cuda_args=["-DX=1"]),
                            preview=False, jobs=2, respect_gitignore=False)
    assert (settings.preview, settings.exclude, settings.cuda_args, settings.jobs, settings.respect_gitignore) == (
        False, ["b"], ["-Iinc", "-DX=1"], 2, False)
    kept = config.merge(config.load([str(tmp_path)]), Settings(), preview=None, jobs=0, respect_gitignore=None)
    assert (kept.preview, kept.exclude, kept.jobs) == (True, ["a"], 3)


def test_cli_flags_override_the_file_end_to_end(tmp_path: Path) -> None:
    """Needs the Triton frontend: an unmasked load is BC101."""
    _write(tmp_path / "boundcheck.toml", 'ignore = ["BC101"]\n')
    kernel = _write(tmp_path / "copy.py", UNMASKED)
    assert _cli(str(kernel))[0] == 0
    code, output = _cli("--select", "BC101", "--output-format", "concise", str(kernel))
    assert code == 1 and "BC101" in output


# --- Bad files: one line naming file and key, exit 2, no traceback ------------------------------

@pytest.mark.parametrize(("toml", "key", "words"), [
    ('selct = ["BC1"]\n', "selct", "did you mean `select`"),
    ('select = "BC101"\n', "select", "list of strings"),
    ('ignore = ["E501"]\n', "ignore", "`E501`"),
    ('extend-select = ["BC9"]\n', "extend-select", "`BC9`"),
    ('preview = "yes"\n', "preview", "true or false"),
    ('jobs = -1\n', "jobs", "whole number"),
    ('cuda-args = [1]\n', "cuda-args", "list of strings"),
    ('per-file-ignores = {"tests/*" = ["BC1O1"]}\n', "per-file-ignores", "`BC1O1`"),
    ('per-file-ignores = ["tests"]\n', "per-file-ignores", "table"),
])
def test_bad_boundcheck_toml(tmp_path: Path, toml: str, key: str, words: str) -> None:
    path = _write(tmp_path / "boundcheck.toml", toml)
    _write(tmp_path / "k.py", PLAIN)
    code, output = _cli(str(tmp_path / "k.py"))
    assert code == 2
    assert "Traceback" not in output
    (line,) = output.strip().splitlines()
    assert line.startswith(f"boundcheck: error: {path}: `{key}`")
    assert words in line


def test_bad_pyproject_key_names_the_table(tmp_path: Path) -> None:
    path = _write(tmp_path / "pyproject.toml", '[tool.boundcheck]\nignroe = ["BC101"]\n')
    code, output = _cli(str(_write(tmp_path / "k.py", PLAIN)))
    assert code == 2
    assert output.strip() == (f"boundcheck: error: {path}: `tool.boundcheck.ignroe` is not a boundcheck"
                              " setting; did you mean `ignore`?")


def test_invalid_toml_is_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "boundcheck.toml", "select = [\n")
    code, output = _cli(str(_write(tmp_path / "k.py", PLAIN)))
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line.startswith(f"boundcheck: error: {path}: cannot be read as TOML")


def test_missing_explicit_config(tmp_path: Path) -> None:
    code, output = _cli("--config", str(tmp_path / "none.toml"), str(_write(tmp_path / "k.py", PLAIN)))
    assert code == 2
    assert output.strip().startswith(f"boundcheck: error: {tmp_path / 'none.toml'}: cannot be read")


def test_bad_config_through_python_dash_m(tmp_path: Path) -> None:
    path = _write(tmp_path / "boundcheck.toml", 'preview = 1\n')
    _write(tmp_path / "k.py", PLAIN)
    done = subprocess.run([sys.executable, "-m", "boundcheck", str(tmp_path / "k.py")],
                          capture_output=True, text=True, check=False, cwd=Path(__file__).parents[1])
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"boundcheck: error: {path}: `preview` must be true or false, not 1\n"


def test_good_config_without_findings_exits_0(tmp_path: Path) -> None:
    _write(tmp_path / "pyproject.toml", '[tool.boundcheck]\nselect = ["BC1"]\nper-file-ignores = {"k.py" = ["BC101"]}\n')
    code, output = _cli(str(_write(tmp_path / "k.py", PLAIN)))
    assert code == 0 and "error" not in output
