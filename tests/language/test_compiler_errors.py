"""Golden compiler messages for broken rule files: every one located, none a traceback."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))
UPDATE = False  # set True once to rewrite the .expected files after a deliberate message change


def run_check(path: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smear_dsl", "check", path], capture_output=True, text=True, cwd=ROOT)


def assert_clean_failure(proc: subprocess.CompletedProcess, path: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith(path + ":") or first.split(":")[0].endswith(".yaml")
    assert ": error: " in first


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_golden_message(path: Path):
    rel = str(path.relative_to(ROOT))
    proc = run_check(rel)
    assert_clean_failure(proc, rel)
    text = proc.stderr.replace(str(ROOT) + "/", "")
    golden = path.with_suffix(".expected")
    if UPDATE:
        golden.write_text(text)
    assert text == golden.read_text()


def test_at_least_a_dozen_broken_files():
    assert len(BROKEN) >= 12


def test_ten_megabyte_file(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("name: big\n" + ("# padding " * 100 + "\n") * 10_000)
    assert big.stat().st_size > 10_000_000
    proc = run_check(str(big))
    assert_clean_failure(proc, str(big))
    assert "too large" in proc.stderr and f"({big.stat().st_size:,} bytes;" in proc.stderr  # its real size, unread


def test_deep_nesting(tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("name: " + "[" * 5000 + "]" * 5000 + "\n")
    proc = run_check(str(deep))
    assert_clean_failure(proc, str(deep))
    assert "deep" in proc.stderr


def test_binary_garbage(tmp_path):
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(bytes(range(256)) * 10)
    proc = run_check(str(junk))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_every_shipped_rule_file_checks_clean():
    proc = subprocess.run([sys.executable, "-m", "smear_dsl", "check", *sorted(str(p) for p in (ROOT / "rules").glob("*.yaml"))],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr


def test_check_warns_of_likely_slips_but_passes_the_file():
    """A point name one letter off a standard one, and a `made` no hand can fail: warnings, exit 0."""
    path = "tests/rules_extra/lint_warnings.yaml"
    proc = run_check(path)
    assert proc.returncode == 0, proc.stderr
    assert f"{path}:7:3: warning: point `jak` looks like a misspelling of `jack`" in proc.stderr
    assert f"{path}:9:9: warning: `made` (points >= 0) holds whatever the hand" in proc.stderr
    assert "2 warning(s)" in proc.stdout and "error" not in proc.stderr
    shipped = subprocess.run([sys.executable, "-m", "smear_dsl", "check", *sorted(str(p) for p in (ROOT / "rules").glob("*.yaml"))],
                             capture_output=True, text=True, cwd=ROOT)
    assert shipped.returncode == 0 and "warning" not in shipped.stderr, shipped.stderr  # the family is clean


def test_a_hint_never_leads_back_to_the_error_it_fixes(tmp_path):
    """A file that has the bidder name trump without bidding is refused; the hint never sends the author
    to another refused form (it once looped between `who: dealer` and `who: bidder`), and each way out
    it names checks clean: trump named in turn, by the dealer, or fixed by the first lead."""
    base = (ROOT / "tests" / "broken" / "name_trump_without_bidding.yaml").read_text()
    path = tmp_path / "bidder.yaml"
    path.write_text(base)
    proc = run_check(str(path))
    assert_clean_failure(proc, str(path))
    hint = next(line for line in proc.stderr.splitlines() if line.strip().startswith("hint:"))
    assert "who: bidder" not in hint and "name_trump: {who: each, may_pass: true}" in hint, hint
    phase = "  - name_trump: {who: bidder}\n"
    for way_out in ("  - name_trump: {who: each, may_pass: true}\n", "  - name_trump: {who: dealer}\n", ""):
        fixed = tmp_path / "fixed.yaml"
        fixed.write_text(base.replace(phase, way_out).replace("phases:\n", "phases:\n" if way_out else "phases: []\n"))
        assert run_check(str(fixed)).returncode == 0, (way_out, run_check(str(fixed)).stderr)


KEEPS = """language: 2
extends: cinch@2
name: Cinch keeping {keeps}
phases:
  - name_trump: {{who: bidder}}
  - discard:
      who: non_dealers
      count: count(hand) - {keeps}
      face_up: true
  - refill: {{who: non_dealers, to: 6}}
  - take: {{who: dealer, count: count(stock)}}
  - discard: {{who: dealer, count: count(hand) - 6, face_up: true}}
"""


def test_the_refill_bound_knows_a_discard_that_keeps_a_card(tmp_path):
    """Three non-dealers each keep at least one card (`max(1, ...)`), so they draw at most 15 of the 16 left:
    no shortage to foresee. Keeping `min(6, ...)` may keep none, and 18 may be needed: still refused."""
    from smear_dsl.compile.compiler import compile_rules
    from smear_dsl.engine import Game
    from smear_dsl.language.load import load_spec
    one = tmp_path / "one.yaml"
    one.write_text(KEEPS.format(keeps="max(1, min(6, count(hand where card.trump)))"))
    assert run_check(str(one)).returncode == 0
    rules = compile_rules(load_spec(str(one)), 4, {})
    rng = random.Random(7)
    for seed in range(40):  # and it plays: every refill finds its cards
        g = Game(rules, seed=f"keep{seed}", hand_limit=1)
        while not g.finished:
            g.apply(g.turn, g.random_move(rng))
    none = tmp_path / "none.yaml"
    none.write_text(KEEPS.format(keeps="min(6, count(hand where card.trump))"))
    proc = run_check(str(none))
    assert_clean_failure(proc, str(none))
    assert "the refill can run short" in proc.stderr and "up to 18 are needed" in proc.stderr


def test_a_problem_caused_in_a_parent_is_located_at_the_childs_own_line(tmp_path):
    """`bidding: none` on top of a parent whose phases need a bidder: the errors point at the child's
    `bidding:` line (what the author wrote), with the parent's line as a note; the referee names the
    parent as rules/NAME.yaml, never by its own path."""
    child = tmp_path / "no_auction.yaml"
    child.write_text("extends: four_point_ne_wisconsin@1\nname: No auction\nbidding: none\n")
    proc = run_check(str(child))
    assert_clean_failure(proc, str(child))
    errors = [line for line in proc.stderr.splitlines() if ": error: " in line]
    assert errors and all(line.startswith(f"{child}:3:1: error: ") for line in errors), errors
    assert "note: it shows in the parent's rules at " in proc.stderr and "four_point_ne_wisconsin.yaml:50:11" in proc.stderr
    from smear_dsl.errors import RuleError
    from smear_dsl.language.load import spec_from_text
    from smear_referee.server.jobs import _diagnostics
    with pytest.raises(RuleError) as e:
        spec_from_text(child.read_text(), "upload.yaml", known_parents_only=True)
    rows = _diagnostics(e.value)
    assert rows and all(r[0] == "upload.yaml" and r[1] == 3 for r in rows)
    assert any("rules/four_point_ne_wisconsin.yaml:50:11" in (r[4] or "") for r in rows)
    assert not any(str(ROOT) in (r[4] or "") for r in rows)


def test_simulate_refuses_what_check_refuses():
    """A bid no hand can make: `check` refuses the file, and so does `simulate` (it played it once), with
    the same located error; a clean file is simulated as before."""
    path = "tests/broken/bid_never_made.yaml"
    sim = subprocess.run([sys.executable, "-m", "smear_dsl", "simulate", path, "--games", "2"], capture_output=True,
                         text=True, cwd=ROOT)
    assert sim.returncode != 0 and "Traceback" not in sim.stderr
    assert f"{path}:6:8: error: a bid of 5 or 6 can never be made" in sim.stderr
    assert run_check(path).returncode == 1
    ok = subprocess.run([sys.executable, "-m", "smear_dsl", "simulate", "cinch", "--games", "2"], capture_output=True,
                        text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr


def test_verify_refuses_a_record_under_rules_check_refuses():
    """A record carrying that file as its `rules_text` (with a bid of 4, which the file could score):
    `verify` refuses the rules with check's reason, as `simulate` and the referee's upload do; the same
    record under the parent's text is valid."""
    import json

    from smear_dsl.errors import RecordError
    from smear_dsl.records.verify import verify

    broken = (ROOT / "tests" / "broken" / "bid_never_made.yaml").read_text()
    base = json.loads(next((ROOT / "tests" / "conformance").glob("*_valid_four_point_widow0.json")).read_text())
    record = {k: v for k, v in base.items() if not k.startswith("rules")}
    record.update(rules="bids_too_high", rules_text=broken)
    with pytest.raises(RecordError, match="a bid of 5 or 6 can never be made"):
        verify(record)
    fine = dict(record, rules_text=broken.replace("  max: 6\n", "  max: 4\n"))
    assert verify(fine)["valid"], verify(fine)["error"]


def test_removing_an_option_the_parent_reads_says_what_to_write_instead(tmp_path):
    """`options: {count_out: null}` under Auction Pitch: the parent's `end.count_out.when` still reads it.
    The hint names the way out, and following it (`when: null`) checks clean."""
    path = ROOT / "tests" / "broken" / "removed_option_still_used.yaml"
    proc = run_check(str(path.relative_to(ROOT)))
    assert "removes the option `count_out`" in proc.stderr and "`when: null`" in proc.stderr
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(path.read_text() + "end:\n  count_out: {when: null}\n")
    assert run_check(str(fixed)).returncode == 0


def _follow(text: str, stderr: str) -> tuple[str, str] | None:
    """`text` with the first error's hint applied, when the hint says exactly what to write: "did you
    mean `X`?" replaces the word at the caret, "write `KEY: VALUE`" sets that top-level key. None else."""
    import re
    first = re.search(r"^.+?:(\d+):(\d+): error: .*\n(?:    .*\n)*?    hint: (.*)$", stderr, re.M)
    if first is None:
        return None
    line, col, hint = int(first.group(1)), int(first.group(2)), first.group(3)
    lines = text.split("\n")
    if (m := re.fullmatch(r"did you mean `([^`]+)`\?", hint)) is not None:
        row = lines[line - 1]
        word = re.match(r"[\w@.]+", row[col - 1:])
        if word is None:
            return None
        lines[line - 1] = row[:col - 1] + m.group(1) + row[col - 1 + word.end():]
        return "\n".join(lines), word.group(0)
    if (m := re.fullmatch(r"write `(\w+): (.+)`", hint)) is not None:
        key, row = m.group(1), lines[line - 1]
        if re.search(rf"\b{key}:", row[:col - 1]):  # the caret is on that key's value, in place: change it there
            word = re.match(r"[\w@.]+", row[col - 1:])
            if word is not None:
                lines[line - 1] = row[:col - 1] + m.group(2) + row[col - 1 + word.end():]
                return "\n".join(lines), word.group(0)
        kept, skipping = [], False
        for row in lines:  # drop the key's block, then write the hint's value
            if re.match(rf"{key}\s*:", row):
                skipping = True
                continue
            if skipping and (row.startswith((" ", "\t")) or not row.strip()):
                continue
            skipping = False
            kept.append(row)
        return "\n".join(kept).rstrip("\n") + f"\n{key}: {m.group(2)}\n", key
    return None


def test_following_a_hint_never_leads_back(tmp_path):
    """Where a broken file's first hint says exactly what to write, writing it makes progress: the file
    checks clean or its next first error is another, whose hint does not ask to undo the change."""
    followed_any = []
    for path in BROKEN:
        proc = run_check(str(path.relative_to(ROOT)))
        followed = _follow(path.read_text(), proc.stderr)
        if followed is None:  # its first hint says what to think about, not exactly what to write
            continue
        text, replaced = followed
        again = tmp_path / path.name
        again.write_text(text)
        after = run_check(str(again))
        assert "Traceback" not in after.stderr
        followed_any.append(path.stem)
        if after.returncode == 0:
            continue
        first_before = proc.stderr.splitlines()[0].split(": error: ", 1)[1]
        first_after = after.stderr.splitlines()[0].split(": error: ", 1)[1]
        assert first_after != first_before, f"{path.stem}: the hint's change left the same error"
        hint_after = next((row for row in after.stderr.splitlines() if row.strip().startswith("hint:")), "")
        assert not re.search(rf"\b{re.escape(replaced)}\b", hint_after), \
            f"{path.stem}: the next hint asks to undo the change: {hint_after}"
    assert len(followed_any) >= 5, followed_any  # did you mean `...`?, write `key: value`
