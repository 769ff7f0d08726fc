"""Every shipped rule file is bid by the heuristic bot within the band a player would recognise for
its family member (bid_bands.py says which and why), and random bots still finish their games."""
from __future__ import annotations

from pathlib import Path

import pytest
from bid_bands import BANDS

from smear_dsl.compile.compiler import compile_rules
from smear_dsl.language.load import load_spec
from smear_dsl.sim.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))


def test_every_shipped_file_has_a_band():
    assert set(BANDS) == set(SHIPPED)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in SHIPPED if BANDS[n].bid is not None])
def test_the_heuristic_bids_within_the_band(name):
    band = BANDS[name]
    s = simulate(compile_rules(load_spec(str(ROOT / "rules" / f"{name}.yaml")), None), 40, 7, "heuristic")
    assert s["unfinished_games"] == 0
    assert band.bid[0] <= s["average_bid"] <= band.bid[1], (band.member, s["average_bid"])
    assert band.made[0] <= s["bidder_made_rate"] <= band.made[1], (band.member, s["bidder_made_rate"])
