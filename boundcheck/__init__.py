"""boundcheck: find boundary-handling bugs in tiled Triton and CUDA kernels."""

__version__ = "0.1.0"
