"""The line fingerprint must equal what GitHub's upload action computes, or alerts would be matched
differently depending on who hashed them. Vectors: github/codeql-action, src/fingerprints.test.ts
(test "hash"), commit a7d3945ab4c0fd136ba0970df5a1b7ca4dadb07a."""

from pathlib import Path

import pytest

from boundcheck.reporters.fingerprint import file_line_hashes, line_hashes

_HELLO = ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1",
          "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"]

VECTORS = [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1",
                             "a23a3dc5e078b07b:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
     ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1",
      "b86d3392aea1be30:1", "e6ceba753e1a442:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", _HELLO),
    (" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", _HELLO),
    (" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", _HELLO),
    (" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", _HELLO),
    ("Lorem ipsum dolor sit amet.\n" * 10,
     ["a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4",
      "a7f2ff13bc495cf2:5", "a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1",
      "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"]),
    ("x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n",
     ["e54938cc54b302f1:1", "bb609acbe9138d60:1", "1131fd5871777f34:1", "5c482a0f8b35ea28:1",
      "54517377da7028d2:1", "2c644846cb18d53e:1", "f1b89f20de0d133:1", "c129715d7a2bc9a3:1"]),
]


@pytest.mark.parametrize(("text", "expected"), VECTORS)
def test_matches_codeql_action_vectors(text: str, expected: list[str]) -> None:
    assert line_hashes(text) == expected


@pytest.mark.parametrize(("text", "expected"), VECTORS[4:7])
def test_file_keeps_line_endings_as_written(tmp_path: Path, text: str, expected: list[str]) -> None:
    # Read from disk as the action reads it: CR and CRLF files hash as their LF twin does.
    path = tmp_path / "f.py"
    path.write_bytes(text.encode())
    assert file_line_hashes(path) == expected
