"""Mutation benchmark: recall and precision of boundcheck on real kernel code."""
