"""Proof harness: runs the fixture kernels at boundary shapes and shows bad ones go wrong.

Not part of the boundcheck wheel; see fixtures/README.md.
"""
