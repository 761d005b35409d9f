"""Residual risk, review sampling, leak scanning and sign-off (seed 002)."""
