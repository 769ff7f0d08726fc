"""Clients of the referee: the Python client and its bots, the terminal table, the demo, the tournament runner."""
