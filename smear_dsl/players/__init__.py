"""Bots: their names and budgets, the heuristic bot, the search bot."""
