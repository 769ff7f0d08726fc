"""Many games at once: simulations, paired comparisons, worker processes, a version's fingerprint."""
