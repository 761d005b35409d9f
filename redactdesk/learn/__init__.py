"""Active learning: CRF over BIO tags, entropy scorers, seed and query strategies, transfer, simulation (seed 004)."""
