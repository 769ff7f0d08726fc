"""smear-record/1: read records, re-referee them, and give the verdict of RECORD_FORMAT.md."""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from smear_dsl import moves as M
from smear_dsl.compile.compiled import CompiledRules
from smear_dsl.compile.lint import compile_checked
from smear_dsl.engine import Game
from smear_dsl.errors import MoveError, OptionError, RecordError, RuleError, clip
from smear_dsl.language.langversion import FIRST, LATEST
from smear_dsl.language.load import load_spec, spec_from_text
from smear_dsl.language.paths import rule_names, split_ref, text_sha256
from smear_dsl.language.schema import did_you_mean
from smear_dsl.language.spec import RuleSpec
from smear_dsl.language.versions import (
    known_texts,
    latest_ref,
    legacy_pins,
    legacy_ref,
    pins_of,
    record_rules,
    ref_for_sha,
    versions_of,
)

FORMAT = "smear-record/1"


@lru_cache(maxsize=64)
def _spec(name: str) -> RuleSpec:
    return load_spec(name)


@lru_cache(maxsize=16)
def _text_spec(text: str, pins_json: str, name: str) -> RuleSpec:
    """The rules a self-contained record carries (`rules_text`), called by the record's `rules` name;
    `extends:` may name only rules/, a bare name meaning the version `pins` gives it."""
    return spec_from_text(text, f"{name}.yaml", known_parents_only=True, pins=json.loads(pins_json))


@lru_cache(maxsize=256)
def _compiled(source: str, pins_json: str | None, players: int, options_json: str, name: str = "") -> CompiledRules:
    spec = _text_spec(source, pins_json, name) if pins_json is not None else _spec(source)
    return compile_checked(spec, players, json.loads(options_json))


def rules_for(record: dict[str, Any], allow_paths: bool = True) -> CompiledRules:
    """Compile the rules a record names (or carries in `rules_text`), for its seats and options;
    RecordError if that is impossible. Without `allow_paths` (a server verifying a stranger's
    record) `rules` must be a rule name of rules/: no path a caller names is ever opened.
    Which version a record means: `rules_text` (its parents at `rules_parents`, else at the versions
    they had before versions existed), else the version `rules` names, else the version whose text
    `rules_sha256` is, else the version the name had before versions existed (a record without one
    was written before them)."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record (format is {clip(record.get('format'))})")
    name = record.get("rules")
    if not isinstance(name, str) or not name:
        raise RecordError("`rules` must name a rule file")
    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("`players` must be a whole number")
    options = record.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RecordError("`options` must be an object")
    digest = record.get("rules_sha256")
    if digest is not None and not (isinstance(digest, str) and len(digest) == 64
                                   and all(c in "0123456789abcdef" for c in digest)):
        raise RecordError("`rules_sha256` must be a SHA-256 in hex (64 lowercase digits)")
    language = _language(record)
    text = record.get("rules_text")
    pins_json = None
    if text is not None:
        if not isinstance(text, str):
            raise RecordError("`rules_text` must be the text of a rule file")
        if digest is not None and digest != text_sha256(text):
            raise RecordError("`rules_sha256` is not the SHA-256 of `rules_text`")
        parents = record.get("rules_parents")
        pins = legacy_pins() if parents is None else pins_of(parents)
        if pins is None:
            raise RecordError("`rules_parents` must list exact versions of rules/ (`name@1`), nearest first")
        source, label, pins_json = text, f"rules_text ({clip(name)})", json.dumps(pins, sort_keys=True)
        base = split_ref(name)[0]
        name = base if base.isidentifier() and len(base) <= 64 else "rules_text"  # what the verdict calls them
    else:
        source = _named_version(name, digest, allow_paths)
        label = clip(source)
    try:
        rules = _compiled(source, pins_json, players, json.dumps(options, sort_keys=True), name if text else "")
    except RuleError as e:
        first = e.diagnostics[0] if e.diagnostics else None
        where = f" (line {first.line})" if first and text is not None else ""
        hint = f"; {first.hint}" if first and first.hint and text is None else ""
        raise RecordError(f"rules {label}{where}: {first.message if first else 'cannot be loaded'}{hint}") from None
    except OptionError as e:
        raise RecordError(str(e)) from None
    if language is not None and language != rules.spec.language:
        raise RecordError(f"the record says its rules are in language {language}, but they are written in "
                          f"language {rules.spec.language}")
    return rules


def _language(record: dict[str, Any]) -> int | None:
    """The rule language version a record names (None: it names none, as records before them did);
    RecordError for one that is not a version, or one newer than this installation reads."""
    language = record.get("language")
    if language is not None and (not isinstance(language, int) or isinstance(language, bool) or language < FIRST):
        raise RecordError("`language` must be a version of the rule language (a whole number from 1)")
    if language is not None and language > LATEST:
        raise RecordError(f"the record's rules are in language {language}; this installation reads languages "
                          f"{FIRST} to {LATEST} (a newer smear-dsl reads it)")
    return language


def _named_version(name: str, digest: str | None, allow_paths: bool) -> str:
    """The exact rules a record without `rules_text` means (see rules_for); RecordError if none here."""
    base, version = split_ref(name)
    if base not in rule_names() or ("@" in name and version is None):
        if allow_paths and "@" not in name:
            return name  # a path (the CLI verifying a record beside its rule file)
        hint = did_you_mean(base, rule_names())
        raise RecordError(f"no rule file {clip(name)} here (a record names one of rules/ or carries "
                          f"`rules_text`)" + (f"; {hint}" if hint else ""))
    if version is not None:
        have = versions_of(base)
        if version not in have:
            raise RecordError(f"{clip(name)}: this installation has no version {version} of {base} (it has "
                              f"{', '.join(map(str, have))}), and the record does not carry `rules_text`")
        ref = name
    elif digest is not None:
        ref = ref_for_sha(base, digest) or (latest_ref(base) if _spec(latest_ref(base)).sha256 == digest else "")
        if not ref:
            raise RecordError(f"`rules_sha256` is the hash of no version of {base} this installation has")
    else:
        ref = legacy_ref(base)
    if digest is not None:
        texts = known_texts(ref) or {_spec(ref).sha256}
        if digest not in texts:
            raise RecordError(f"`rules_sha256` is not the hash of {ref} as this installation has it (a record "
                              "of rules changed locally carries them in `rules_text`)")
    return ref


def carried_rules(spec: RuleSpec) -> dict[str, Any]:
    """`rules_text`, `rules_sha256` and `rules_parents` for a record of a game under `spec`, when it is
    not a released version of the family (a house rule file, a club's folder): such a record must
    carry its rules to verify anywhere (RECORD_FORMAT.md). Empty for a released version."""
    fields = record_rules(spec)
    return {} if "rules_text" not in fields else {k: v for k, v in fields.items() if k != "rules"}


def parse_deal(rules: CompiledRules, deal: Any) -> tuple[list[list[int]], list[int]] | None:
    """Card ids of a record's deal, or None when it is not the deck split as the rules deal it."""
    if not isinstance(deal, dict):
        return None
    hands, stock = deal.get("hands"), deal.get("stock")
    if not isinstance(hands, list) or not isinstance(stock, list) or len(hands) != rules.players:
        return None
    out_hands = []
    seen: set[int] = set()
    for h in hands:
        if not isinstance(h, list) or len(h) != rules.deal.hand_size:
            return None
        got = [rules.deck.id_of.get(c) if isinstance(c, str) else None for c in h]
        ids = [c for c in got if c is not None]
        if len(ids) != len(got):
            return None
        out_hands.append(ids)
        seen.update(ids)
    got = [rules.deck.id_of.get(c) if isinstance(c, str) else None for c in stock]
    ids = [c for c in got if c is not None]
    if len(ids) != len(got):
        return None
    seen.update(ids)
    total = rules.players * rules.deal.hand_size + len(stock)
    if len(seen) != total or total != len(rules.deck.cards):
        return None
    return out_hands, ids


Observer = Callable[[Game, int, "int | None"], None]


def verify(record: Any, allow_paths: bool = True, observe: Observer | None = None) -> dict[str, Any]:
    """The verdict for a parsed record; RecordError if it cannot be read at all (see `rules_for`).
    `observe(game, hand, move)` (if given) sees the game after each deal (move None) and each move."""
    rules = rules_for(record, allow_paths)
    verdict = _judge(record, rules, observe)
    readings = _earlier_readings(record, rules, verdict)
    if readings and not verdict["valid"] and readings[0]["valid"]:
        # Valid only under an earlier version the bare name also meant then: that is the game it was.
        verdict, readings = _judge(record, _compiled_ref(record, readings[0]["rules"]), observe), readings[1:]
    if readings:
        verdict["also_read_as"] = readings
    return verdict


def _outcome(verdict: dict[str, Any]) -> tuple:
    return verdict["valid"], verdict["finished"], verdict["winner"], verdict["scores"], verdict["hands"]


def _compiled_ref(record: dict[str, Any], ref: str) -> CompiledRules:
    return _compiled(ref, None, record["players"], json.dumps(record.get("options") or {}, sort_keys=True))


def _earlier_readings(record: dict[str, Any], rules: CompiledRules, verdict: dict[str, Any]) -> list[dict[str, Any]]:
    """A record written before rule files had versions names a shipped file bare, with no text and no
    hash: the name meant each of its versions up to its legacy one in turn (a file changed as it was
    corrected, before a change made a new version). The verdicts of the earlier versions, newest first,
    that differ from `verdict` (valid ones first): the verdict says so rather than pick one silently."""
    name = str(record.get("rules"))
    if record.get("rules_text") is not None or record.get("rules_sha256") is not None or "@" in name \
            or name not in rule_names() or rules.spec.ref != legacy_ref(name):
        return []
    out = []
    for v in reversed(versions_of(name)):
        ref = f"{name}@{v}"
        if v >= (split_ref(rules.spec.ref)[1] or 0):
            continue
        try:
            other = _judge(record, _compiled_ref(record, ref), None)
        except (RuleError, OptionError, RecordError):
            continue
        if _outcome(other) != _outcome(verdict):
            out.append({"rules": ref, **{k: other[k] for k in ("valid", "finished", "winner", "scores", "hands", "error")}})
    return sorted(out, key=lambda r: not r["valid"])


def _judge(record: dict[str, Any], rules: CompiledRules, observe: Observer | None) -> dict[str, Any]:
    """The verdict of `record` under `rules`."""
    first = record.get("first_dealer")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.players:
        raise RecordError(f"`first_dealer` must be a seat 0..{rules.players - 1}")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("`hands` must be a list")
    limit = record.get("hand_limit")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
        raise RecordError("`hand_limit` must be a whole number above 0")
    ended = record.get("ended")
    if ended is not None and not (isinstance(ended, dict) and isinstance(ended.get("reason"), str)):
        raise RecordError("`ended` must be an object with a `reason`")
    game = Game(rules, seed=0, first_dealer=first, auto_deal=False, hand_limit=limit)
    error = None
    for h, hand in enumerate(hands):
        error = _replay_hand(game, h, hand, h == len(hands) - 1, observe)
        if error:
            break
    results = game.results
    finished, winner = game.finished, game.winner
    if error is not None and len(results) > error["hand"]:
        # The hand holding the error does not count, even if its last trick was played.
        results = results[:error["hand"]]
        finished, winner = _end_state(game, results)
    end = game.ended_by if finished else None
    if ended is not None and error is None and not finished:
        finished, winner, end = True, None, "abandoned"  # the referee ended it: nobody won, the hand in play not scored
    scores = list(results[-1].scores) if results else [0] * rules.n_sides
    return {
        "rules": rules.spec.ref,
        "valid": error is None,
        "finished": finished,
        "winner": winner,
        "scores": scores,
        "hands": [r.to_json() for r in results],
        "error": error,
        "end": end,  # how a finished game ended: "rules", "hand_limit" or "abandoned"
    }


def _replay_hand(game: Game, h: int, hand: Any, last: bool, observe: Observer | None) -> dict[str, Any] | None:
    """Deal and play hand `h` of a record on `game`; the verdict's error for it, if any (in
    RECORD_FORMAT.md's order: the entry, the deal, a hand after the end, each move, completeness)."""
    rules = game.rules
    if not isinstance(hand, dict):
        return _err(h, None, "BAD_DEAL", "a hand entry is an object with `deal` and `moves`")
    deal = parse_deal(rules, hand.get("deal"))
    if deal is None:
        return _err(h, None, "BAD_DEAL", f"the deal is not the {len(rules.deck.cards)}-card deck in "
                    f"{rules.players} hands of {rules.deal.hand_size} plus the stock")
    moves = hand.get("moves")
    if not isinstance(moves, list):
        return _err(h, 0, "BAD_RECORD", "`moves` must be a list")
    if game.finished:
        if moves:
            try:
                M.from_dict(rules, moves[0])
            except MoveError as e:
                return _err(h, 0, e.code, e.message)
        return _err(h, 0, "GAME_OVER", "a hand starts after the game has ended")
    game.start_hand(deal)
    if observe:
        observe(game, h, None)
    for m, move in enumerate(moves):
        try:
            seat, action, payload = M.from_dict(rules, move)
            game.apply_action(seat, action, payload)
        except MoveError as e:
            return _err(h, m, e.code, e.message)
        if observe:
            observe(game, h, m)
    if not game.hand_over and not last:
        return _err(h, len(moves), "HAND_INCOMPLETE", "this hand stops before it is over")
    return None


def _end_state(game: Game, results: list) -> tuple[bool, int | None]:
    """Whether the game had ended after the kept hands (it ends on a hand, and nothing is kept after it)."""
    if game.finished and len(results) == len(game.results):
        return True, game.winner
    return False, None


def _err(hand: int, move: int | None, code: str, message: str) -> dict[str, Any]:
    return {"hand": hand, "move": move, "code": code, "message": message}
