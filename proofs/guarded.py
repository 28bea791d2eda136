"""Guard-banded buffers and the oracles that read them.

The Triton interpreter reads and writes raw process memory with no bounds checks, and a GPU
kernel may touch memory past a tensor's end without faulting. So every input is a view into a
larger buffer whose tail (the guard band) is NaN, and every output is a view followed by a
sentinel band; out-of-bounds reads then show up as NaN and out-of-bounds writes as changed
sentinels, deterministically.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

POISON = -1.5e38  # fills outputs before launch; still there afterwards = never written
SENTINEL = 7.0e37  # fills the band after each output; changed afterwards = written out of bounds

ORACLES = ("values", "canary", "unwritten", "guard-read")


def guarded_input(values: torch.Tensor, band: int, device: str) -> torch.Tensor:
    """A float32 contiguous view of `values` followed by `band` NaN elements."""
    n = values.numel()
    buf = torch.full((n + band,), math.nan, dtype=torch.float32, device=device)
    buf[:n] = values.reshape(-1).to(device=device, dtype=torch.float32)
    return buf[:n].view(values.shape)


@dataclass
class GuardedOutput:
    """An output view (filled with POISON) and the sentinel band that follows it."""

    buffer: torch.Tensor
    view: torch.Tensor

    @classmethod
    def allocate(cls, shape: tuple[int, ...], band: int, device: str) -> GuardedOutput:
        n = math.prod(shape)
        buf = torch.full((n + band,), SENTINEL, dtype=torch.float32, device=device)
        buf[:n] = POISON
        return cls(buffer=buf, view=buf[:n].view(shape))

    def measure(self, reference: torch.Tensor) -> dict[str, float]:
        """Observed number per oracle for this output against its float64 reference."""
        n = self.view.numel()
        got = self.view.detach().to("cpu", torch.float64).reshape(-1)
        ref = reference.to(torch.float64).reshape(-1)
        band = self.buffer[n:].detach().cpu()
        nan = torch.isnan(got)
        diff = (got - ref).abs()
        diff[nan] = math.inf
        poison = self.view.detach().cpu().reshape(-1) == torch.tensor(POISON, dtype=torch.float32)
        return {
            "values": float(diff.max()) if n else 0.0,
            "canary": int((band != torch.tensor(SENTINEL, dtype=torch.float32)).sum()),
            "unwritten": int(poison.sum()),
            "guard-read": int(nan.sum()),
        }


def is_wrong(oracle: str, observed: float, tolerance: float) -> bool:
    """`values` is wrong past `tolerance` (NaN counts as infinitely wrong); the counts past zero."""
    if oracle == "values":
        return not observed <= tolerance
    return observed > 0
