"""Proof tests: make the top-level `proofs` package importable and register their markers.

Select them with `-m proof_triton` (interpreter run, a minute or two on two cores) or
`-m proof_evidence` (GPU evidence is current); deselect with `-m "not proof_triton"`.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    config.addinivalue_line("markers", "proof_triton: runs every Triton fixture under the interpreter")
    config.addinivalue_line("markers", "proof_evidence: checks fixtures/evidence/ matches the fixture files")
