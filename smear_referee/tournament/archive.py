"""The tournament archive (smear-tournament/1) and its verification from scratch.

An archive holds the rules, options and entrants, every round's commitment and revealed seed,
each table's seating and game record (smear-record/1), the audit log and the standings.
`verify_archive` re-derives every deal from the revealed seeds, re-referees every game,
recomputes the standings, and lists exactly what does not match.
"""
from __future__ import annotations

from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.duplicate import boards, commitment, first_dealer, table_seed
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError, RecordError
from smear_dsl.records.verify import FORMAT as RECORD_FORMAT
from smear_dsl.records.verify import rules_for, verify
from smear_referee.tournament import standings as S

FORMAT = "smear-tournament/1"


def outcome(verdict: dict[str, Any], hands_per_round: int) -> int | None:
    """The winning side of a table: the game's winner, or, when the round is played over a number
    of hands and the game reached it, the unique highest score (a tie: nobody)."""
    if verdict["finished"] or not hands_per_round or len(verdict["hands"]) < hands_per_round:
        return verdict["winner"]
    scores = verdict["scores"]
    top = max(scores)
    return scores.index(top) if scores.count(top) == 1 else None


def expected_seed(rnd: dict[str, Any], t: int) -> str:
    return rnd["seed"] if rnd["duplicate"] else table_seed(rnd["seed"], t)


def verify_archive(archive: Any) -> list[str]:
    """Every mismatch found, each a precise sentence; an empty list means the archive holds."""
    problems: list[str] = []
    if not isinstance(archive, dict) or archive.get("format") != FORMAT:
        return [f"not a {FORMAT} archive"]
    try:
        rules = archive_rules(archive)
    except Exception as e:  # noqa: BLE001 - any failure here is a finding, reported as such
        return [f"the archive's rules cannot be loaded: {e}"]
    games = []
    per_round = archive.get("hands_per_round", 0)
    for rnd in archive.get("rounds", []):
        r = rnd["round"]
        if commitment(rnd["seed"]) != rnd["commitment"]:
            problems.append(f"round {r + 1}: the revealed seed does not match the commitment published at its start")
        for t, table in enumerate(rnd["tables"]):
            where = f"round {r + 1} table {t + 1}"  # a person reads these: rounds, tables, hands and seats from 1
            record = table["record"]
            seed = expected_seed(rnd, t)
            if record.get("seed") != seed:
                problems.append(f"{where}: the game was dealt with seed {record.get('seed')!r}, "
                                f"not the one derived from the round's seed")
            problems += _check_deals(rules, record, seed, rnd["duplicate"], where, per_round)
            verdict = verify(record)
            if not _same_rules(record, verdict, archive, rules):
                problems.append(f"{where}: played under {verdict['rules']}, not the tournament's {rules.spec.ref}")
            if not verdict["valid"]:
                err = verdict["error"]
                problems.append(f"{where}: the record does not verify: hand {err['hand'] + 1} move {(err['move'] or 0) + 1}: "
                                f"{err['code']} {err.get('message', '')}".rstrip())
                continue
            winner = outcome(verdict, per_round)
            claimed = table.get("result")
            if claimed is not None and (claimed.get("scores") != verdict["scores"] or claimed.get("winner") != winner):
                problems.append(f"{where}: the recorded result {claimed} is not what the game gives "
                                f"(scores {verdict['scores']}, winner {winner})")
            games.append({"round": r, "seats": table["seats"], "scores": verdict["scores"], "winner": winner})
    names = [e["name"] for e in archive["entrants"]]
    recomputed = S.compute(names, games, archive.get("audit", []))
    for got, want in zip(archive.get("standings", []), recomputed):
        if got != want:
            diff = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
            problems.append(f"standings rank {want['rank']}: the archive says "
                            + ", ".join(f"{k} {a}" for k, (a, _b) in diff.items())
                            + "; recomputed from the records: " + ", ".join(f"{k} {b}" for k, (_a, b) in diff.items()))
    if len(archive.get("standings", [])) != len(recomputed):
        problems.append(f"standings: {len(archive.get('standings', []))} rows, but there are {len(recomputed)} entrants")
    return problems


def _same_rules(record: dict[str, Any], verdict: dict[str, Any], archive: dict[str, Any], rules: CompiledRules) -> bool:
    """Whether a table's game was played under the tournament's rules: the same released version, or
    the same carried text with the same parents. A carried text's name is only a label (the referee
    called every upload `upload` until the tournament's own name was kept), so it is not compared."""
    text = archive.get("rules_text")
    if record.get("rules_text", text) != text:
        return False
    if text is None:
        return bool(verdict["rules"] == rules.spec.ref)
    try:
        return rules_for(record, allow_paths=False).spec.extends == rules.spec.extends
    except RecordError:
        return False


def archive_rules(archive: dict[str, Any]) -> CompiledRules:
    """The rules every game of the archive is played under, read as a record's are (RecordError if
    they cannot be): the exact version it names, or its `rules_text` with its `rules_parents`."""
    fields: dict[str, Any] = {k: archive[k] for k in ("rules", "rules_text", "rules_sha256", "rules_parents", "players", "options")
              if k in archive}
    return rules_for({"format": RECORD_FORMAT, **fields}, allow_paths=False)


def findings(archive: dict[str, Any]) -> list[str]:
    """Games that did not end by their rules: cut by a hand limit the tournament did not set (the
    server's), or ended by the referee. They verify, and count as the limit decides, but a game
    that cannot end says something about the players or the rules."""
    out = []
    per_round = archive.get("hands_per_round", 0)
    for rnd in archive.get("rounds", []):
        for t, table in enumerate(rnd["tables"]):
            v = verify(table["record"])
            if v["end"] == "abandoned" or (v["end"] == "hand_limit" and len(v["hands"]) != per_round):
                how = "was ended by the referee" if v["end"] == "abandoned" else \
                    f"reached the server's limit of {len(v['hands'])} hands"
                out.append(f"round {rnd['round'] + 1} table {t + 1} {how} before the rules ended it "
                           f"(scores {', '.join(map(str, v['scores']))})")
    return out


def _check_deals(rules, record: dict[str, Any], seed: str, duplicate: bool, where: str,
                 hand_limit: int = 0) -> list[str]:
    """Re-deal the game from its seed (replaying its moves) and compare every hand's deal."""
    first = first_dealer(seed, rules.players)
    if record.get("first_dealer") != first:
        dealt = record.get("first_dealer")
        return [f"{where}: the first dealer is seat {dealt + 1 if isinstance(dealt, int) else dealt!r}, the seed gives seat {first + 1}"]
    game = Game(rules, seed=seed, first_dealer=first, deal_source=boards(rules, seed) if duplicate else None,
                hand_limit=hand_limit or None)
    out = []
    for k, hand in enumerate(record.get("hands", [])):
        if k >= len(game.record_hands):
            break
        _dealer, hands, stock, _moves = game.record_hands[k]
        names = [[rules.card_name(c) for c in h] for h in hands]
        got = hand.get("deal", {})
        for seat, (want, have) in enumerate(zip(names, got.get("hands", []))):
            if sorted(want) != sorted(have):
                extra = sorted(set(have) - set(want))
                missing = sorted(set(want) - set(have))
                out.append(f"{where} hand {k + 1}: seat {seat + 1} holds {' '.join(extra) or '-'} instead of "
                           f"{' '.join(missing) or '-'} that the seed deals")
        if sorted(got.get("stock", [])) != sorted(rules.card_name(c) for c in stock):
            out.append(f"{where} hand {k + 1}: the stock differs from the seed's deal")
        try:
            for m in hand.get("moves", []):
                seat, action, payload = M.from_dict(rules, m)
                game.apply_action(seat, action, payload)
        except MoveError:
            break  # the verdict reports bad moves
        if game.finished:
            break
    return out
