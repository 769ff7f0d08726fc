"""Tournaments: pairing, duplicate rounds, standings, archives anyone can verify, and a runner."""
