"""What people choose from on a command line, by name: the players' languages, the bots and the moves
typed at a terminal. Kept free of imports so `smear-dsl --help` lists them without loading the engine
(i18n, botspec and moves re-export their own)."""
from __future__ import annotations

# The languages players may choose, each named in itself.
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "sk": "Slovenčina", "tl": "Tagalog", "th": "ไทย"}

BOT_HELP = ("random, heuristic (heuristic:bold, heuristic:cautious), heuristic@1 (the first heuristic), or "
            "search[:BUDGET] (BUDGET: 200ms, 1.5s, or a number of playouts; default 200ms)")
SIMPLE = ("random", "heuristic", "heuristic:bold", "heuristic:cautious", "heuristic@1")


# What `play --help` shows: every move a person may type at a terminal's `move>` prompt (the
# terminal client's parse_move reads them).
TYPED = """\
moves, typed at the `move>` prompt (in any case):
  1, 2, ...            the move with that number in the list the table offers
  pass                 pass in the bidding
  bid N                bid N, e.g. `bid 3`
  trump S              name trump: S, H, D or C (spades, hearts, diamonds, clubs)
  AS, 10H, QD, ...     play a card: its rank (2-10, J, Q, K, A) and suit; a joker by its name (e.g. JK)
  discard AS 10H       discard those cards (as many as the table asks; `discard` alone for none)
  stand, beg, give, run
                       begging: the player left of the dealer stands or begs; the dealer gives a
                       point or runs the cards
seats count from 1, as the table shows them."""
