"""Language frontends: each turns one source file into the boundary model."""
