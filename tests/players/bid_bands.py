"""The band a player would recognise for each shipped rule file's bidding: the average winning bid
and how often the bidder makes it, by family member, and why. tests/players/test_bid_bands.py holds
the heuristic bot to them; benchmarks/bench_bids.py prints them beside what the bots do."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Band:
    member: str
    bid: tuple[float, float] | None  # None: no bidding (the trump is turned up, or begged for)
    made: tuple[float, float] | None
    why: str


FOUR = Band("Four-point Pitch, Setback and Smear", (1.5, 3.0), (0.70, 0.97),
            "four points between the sides: 2 is the usual contract, 3 a strong trump, 4 rare (and where "
            "all passing makes the eldest pitch for nothing, a 0 counts); going set costs the bid, so a "
            "bid is made most of the time")
FIVE = Band("Five- and six-point Smear (Jick, Joker, Off-Jack)", (2.0, 3.6), (0.70, 0.97),
            "one or two more points: bids a little higher, made as often")
TEN = Band("Ten-point Smear (Jack, Jick, Joker and the fives)", (3.5, 6.5), (0.60, 0.92),
           "ten points, a five worth five alone: bids run 4 to 6, set more often than at four points")
CINCH = Band("Cinch (Double Pedro)", (6.0, 10.0), (0.55, 0.85),
             "fourteen points, seven to win a hand: partners bid 6 to 10 and are set one time in four")
PEDRO = Band("Pedro, each for themselves", (1.5, 4.0), (0.65, 0.95),
             "nine points among four players alone: a bidder rarely takes more than a third of them")
SCHMIER = Band("St. Paul Schmier (six players, three a side)", (3.0, 4.2), (0.45, 0.85),
               "the least bid, 3, is half of the six points, and all passing redeals: contracts are close")
NONE = Band("No bidding (All Fours, California Jack, Shasta Sam, Don)", None, None,
            "the trump is turned up or begged for: there is no bid to measure")

BANDS = {
    "auction_pitch": FOUR, "cutthroat_canadian": FOUR, "four_point_house": FOUR, "four_point_ne_wisconsin": FOUR,
    "partnership_pitch": FOUR, "setback": FOUR,
    "cutthroat_joker": FIVE, "five_point_jick": FIVE, "five_point_joker": FIVE, "six_point_ne_wisconsin": FIVE,
    "ten_point_jack_jick_joker": TEN, "cinch": CINCH, "pedro": PEDRO, "st_paul_schmier": SCHMIER,
    "all_fours": NONE, "all_fours_trinidad": NONE, "california_jack": NONE, "shasta_sam": NONE, "don": NONE,
}
