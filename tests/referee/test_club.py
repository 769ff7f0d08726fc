"""A club's export (smear-club/1): it verifies as written; the ratings recompute exactly, as openskill
itself computes them (the oracle below rates by hand with the library); each kind of tampering is caught
and named; the ladder ranks the stronger bot's members first, in the reader's language, names as data."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from functools import cache

from conftest import ROOT

from smear_dsl.records.verify import verify
from smear_referee.club.export import build_export, read_export, verify_export, write_export
from smear_referee.club.ladder import ladder
from smear_referee.club.ratings import RatingSettings, ordinal
from smear_referee.club.sample import member_id, sample_export


@cache
def _season(seasons: int = 1, games: int = 80) -> tuple:
    return tuple(sample_export(games, members=8, seasons=seasons, seed="test-club"))


def season(seasons: int = 1, games: int = 80) -> list[dict]:
    return copy.deepcopy(list(_season(seasons, games)))


def test_an_export_verifies_and_its_ratings_are_openskills_own():
    lines = season()
    recomputed: list = []
    assert verify_export(lines, ratings_out=recomputed) == []
    # The oracle: rate every finished game with openskill directly, sides as teams, guests as newcomers.
    from openskill.models import PlackettLuce
    model, mine = PlackettLuce(), {}
    for g in lines[1:-1]:
        v = verify(g["record"])
        sides = len(v["scores"])
        teams = [[(m, model.rating(mu=mine[m][0], sigma=mine[m][1]) if m in mine else model.rating())
                  for s, m in enumerate(g["seats"]) if s % sides == side] for side in range(sides)]
        order = sorted(set(v["scores"]), reverse=True)
        ranks = [0 if side == v["winner"] else 1 + order.index(v["scores"][side]) for side in range(sides)]
        new = model.rate([[r for _m, r in t] for t in teams], ranks=ranks)
        for team, rated in zip(teams, new):
            for (m, _old), r in zip(team, rated):
                if m is not None:
                    mine[m] = (r.mu, r.sigma)
    got = lines[-1]["ratings"]["four_point_ne_wisconsin"]
    assert {m: (s["mu"], s["sigma"]) for m, s in got.items()} == mine
    assert recomputed[0]["four_point_ne_wisconsin"][member_id(0)].mu == mine[member_id(0)][0]
    assert any(None in g["seats"] for g in lines[1:-1])  # a guest sat, unrated


def test_the_ladder_ranks_the_stronger_bots_members_first():
    lines = season(games=160)
    ratings: list = []
    assert verify_export(lines, ratings_out=ratings) == []
    names = {m["id"]: m["name"] for m in lines[0]["members"]}
    rungs = ladder(ratings[0], RatingSettings(), names, "four_point_ne_wisconsin")
    strong = {member_id(i) for i in range(4)}  # sample.py: the first half plays today's heuristic
    assert {r.member for r in rungs[:2]} <= strong and {r.member for r in rungs[-2:]}.isdisjoint(strong)
    assert [r.place for r in rungs] == list(range(1, 9)) and all(r.partners for r in rungs)
    assert rungs[0].rating == round(ordinal(ratings[0]["four_point_ne_wisconsin"][rungs[0].member]), 2)


def _problems(lines: list[dict], **kw) -> str:
    found = verify_export(lines, **kw)
    assert found, "the tampering went unseen"
    return "\n".join(found)


def test_the_published_head_covers_the_rating_model_the_name_and_who_the_members_are():
    """An export whose summaries an attacker rewrote to match (ratings recomputed) still fails against the head
    the club published: doubling the rating model's beta, renaming the club, swapping two members' names, or
    dropping the roster to pass the chain's end off as the head."""
    from smear_referee.club.ratings import ratings_json
    lines = season(games=12)
    heads = {1: lines[-1]["head"]}
    assert verify_export(lines, heads) == []

    def rewritten(changed: list[dict]) -> list[dict]:
        ratings: list = []
        verify_export(changed, ratings_out=ratings)
        changed[-1]["ratings"] = ratings_json(ratings[0])  # the attacker's summary agrees with the changed header
        return changed

    doubled = copy.deepcopy(lines)
    doubled[0]["settings"]["beta"] = 2 * RatingSettings.from_json(lines[0]["settings"]).beta
    doubled = rewritten(doubled)
    assert "does not cover the export's club name, rating settings" in _problems(doubled, heads=heads)
    renamed = copy.deepcopy(lines)
    renamed[0]["name"] = "Another club"
    assert "does not cover" in _problems(renamed, heads=heads)
    swapped = copy.deepcopy(lines)
    a, b = swapped[0]["members"][0], swapped[0]["members"][1]
    a["name"], b["name"] = b["name"], a["name"]
    found = _problems(swapped, heads=heads)
    assert f"member {a['id']}'s name in the export" in found and f"member {b['id']}'s name" in found
    unsealed = copy.deepcopy(lines)
    summary = unsealed[-1]
    summary["head"] = summary.pop("tip")
    summary.pop("roster")
    assert "is not the one the club published" in _problems(rewritten(unsealed), heads=heads)


def test_a_changed_record_is_caught():
    lines = season()
    g = lines[5]
    moves = g["record"]["hands"][0]["moves"]
    i = next(k for k, m in enumerate(moves) if m["action"] == "play")
    j = next(k for k, m in enumerate(moves) if m["action"] == "play" and m["seat"] == moves[i]["seat"] and k > i)
    moves[i]["card"], moves[j]["card"] = moves[j]["card"], moves[i]["card"]  # the same seat's two cards swapped
    found = _problems(lines)
    assert "season 1 game 5: its digest does not follow" in found


def test_a_dropped_game_is_caught_in_the_middle_and_at_the_end():
    lines = season()
    del lines[10]  # game 10
    found = _problems(lines)
    assert "season 1 game 10: missing or out of order" in found and "game 10: its digest does not follow" in found
    # The last game dropped and the season's summary rewritten to match: only the published head shows it.
    whole = season()
    head = whole[-1]["head"]
    club = whole[0]["club"]
    short = [whole[0]] + whole[1:-2]
    rebuilt = build_export(club, RatingSettings(), whole[0]["rule_files"], whole[0]["members"],
                           [{"season": 1, "games": [{"seats": g["seats"], "record": g["record"]} for g in short[1:]]}])
    assert verify_export(rebuilt) == []
    assert "season 1: its head digest" in _problems(rebuilt, heads={1: head})


def test_an_edited_rating_is_caught_and_named():
    lines = season()
    ratings = lines[-1]["ratings"]["four_point_ne_wisconsin"]
    ratings[member_id(2)]["mu"] += 0.001
    found = _problems(lines)
    assert f"member {member_id(2)} (Player 3): mu" in found and "recomputed" in found


def test_a_game_credited_to_another_member_is_caught():
    lines = season()
    g = next(x for x in lines[1:-1] if member_id(7) not in x["seats"] and None not in x["seats"])
    g["seats"][0] = member_id(7)  # someone else's seat claimed
    found = _problems(lines)
    assert f"season 1 game {g['game']}: its digest does not follow" in found and "recomputed" in found


def test_a_seat_held_twice_an_outsider_and_a_foreign_rule_file_are_named():
    lines = season()
    g = lines[3]
    g["seats"][1] = g["seats"][0]
    lines[4]["seats"][0] = "m9999"
    lines[0]["rule_files"] = [{"rules": "cinch@1", "rules_sha256": None}]
    found = _problems(lines)
    assert "season 1 game 3 seat 2: member" in found and "sits twice" in found
    assert "season 1 game 4 seat 1: 'm9999' is not a member" in found
    assert "not one of the club's rule files" in found


def test_seasons_carry_or_reset_their_ratings():
    carried = season(seasons=2, games=60)
    assert verify_export(carried) == []
    second_games = [{"seats": g["seats"], "record": g["record"]} for g in carried[1:] if g.get("season") == 2 and "game" in g]
    fresh = build_export("Sample club", RatingSettings(), carried[0]["rule_files"], carried[0]["members"],
                         [{"season": 1, "games": second_games}])
    reset = build_export("Sample club", RatingSettings(season_start="reset"), carried[0]["rule_files"],
                         carried[0]["members"], [{"season": 1, "games": []}, {"season": 2, "games": second_games}])
    assert reset[-1]["ratings"] == fresh[-1]["ratings"]  # reset: season 2 alone
    assert carried[-1]["ratings"] != fresh[-1]["ratings"]  # carry: season 1 counts


def test_bad_settings_and_bad_lines_are_named_not_raised():
    lines = season()
    lines[0]["settings"]["model"] = "Elo"
    assert "`model` is one of" in _problems(lines)
    assert verify_export([{"format": "something else"}]) == ["not a smear-club/1 export (its first line names the format)"]
    lines = season()
    lines[7]["record"] = {"format": "smear-record/1", "rules": "../../etc/passwd", "players": 4}
    assert "season 1 game 7: the record cannot be read" in _problems(lines)
    assert "its games are not summed up" in _problems(season()[:-1])


def test_the_commands_verify_and_show_the_ladder_with_names_as_data(tmp_path):
    whole = season()
    members = whole[0]["members"]
    members[0]["name"] = "[bold red]Ann[/] \x1b[31m"  # data, never markup or a terminal escape
    members[1]["name"] = None  # left the club: the ladder stops showing the name
    lines = build_export("[red]Thursday[/] club", RatingSettings(), whole[0]["rule_files"], members,
                         [{"season": 1, "games": [{"seats": g["seats"], "record": g["record"]} for g in whole[1:-1]]}])
    path = tmp_path / "club.jsonl"
    write_export(str(path), lines)
    assert [json.dumps(x, sort_keys=True) for x in read_export(str(path))] == [json.dumps(x, sort_keys=True) for x in lines]
    run = [sys.executable, "-m", "smear_dsl", "club"]
    ok = subprocess.run(run + ["verify", str(path), "--head", f"1={lines[-1]['head']}"], capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0 and ok.stdout.startswith("ok:"), ok.stdout + ok.stderr
    shown = subprocess.run(run + ["ladder", str(path), "--lang", "fr"], capture_output=True, text=True, cwd=ROOT,
                           env={"COLUMNS": "200", "PATH": ""})
    assert shown.returncode == 0, shown.stderr
    assert "[bold red]Ann[/]" in shown.stdout and "\x1b" not in shown.stdout and "[red]Thursday[/] club" in shown.stdout
    assert "un ancien membre" in shown.stdout and "Victoires" in shown.stdout and "saison 1" in shown.stdout
    lines[-1]["ratings"]["four_point_ne_wisconsin"][member_id(3)]["wins"] += 1
    write_export(str(path), lines)
    bad = subprocess.run(run + ["verify", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1 and f"member {member_id(3)} (Player 4): wins" in bad.stdout
    lines[-1]["ratings"]["four_point_ne_wisconsin"][member_id(3)]["wins"] -= 1
    lines[-1]["ratings"]["four_point_ne_wisconsin"][member_id(0)]["games"] += 1  # Ann's line quotes her name
    write_export(str(path), lines)
    bad = subprocess.run(run + ["verify", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert "[bold red]Ann[/]" in bad.stdout and "\x1b" not in bad.stdout
    path.write_text(path.read_text() + "{not json\n")
    assert "is not JSON" in subprocess.run(run + ["verify", str(path)], capture_output=True, text=True, cwd=ROOT).stdout
