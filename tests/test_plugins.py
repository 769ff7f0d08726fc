"""smear_dsl.plugins reads entry points as importlib.metadata does (its oracle here), on this machine's
installs and on made-up ones: a name installed twice, an egg, a half-installed package."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points as oracle

import pytest
from conftest import ROOT

from smear_dsl.plugins import entry_points


def _both(group: str) -> tuple[list, list]:
    return ([(e.name, e.value) for e in entry_points(group)],
            [(e.name, e.value) for e in oracle(group=group)])


@pytest.mark.parametrize("group", ["smear_dsl.commands", "console_scripts", "pytest11", "no.such.group"])
def test_the_installed_entry_points_are_those_importlib_metadata_finds(group):
    mine, theirs = _both(group)
    assert sorted(mine) == sorted(theirs)
    if group == "smear_dsl.commands":
        assert ("referee", "smear_referee.cli:register") in mine


def _dist(where, dirname: str, text: str) -> None:
    d = where / dirname
    d.mkdir(parents=True)
    (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dirname.split('-')[0].split('.')[0]}\nVersion: 1\n")
    (d / "entry_points.txt").write_text(text)


def test_made_up_installs_read_as_importlib_metadata_reads_them(tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    _dist(first, "Club_Rules-1.0.dist-info", "# a comment\n[smear_dsl.commands]\nclub = club_rules.cli:register\n"
                                            "\n[console_scripts]\nclub = club_rules:main\n")
    _dist(second, "club.rules-0.9.dist-info", "[smear_dsl.commands]\nold = club_rules_old:register\n")  # shadowed
    _dist(second, "bots_pack.egg-info", "[smear_dsl.commands]\n  bots =  bots_pack.cli : register \n")
    _dist(second, "empty-2.dist-info", "")
    monkeypatch.syspath_prepend(str(second))
    monkeypatch.syspath_prepend(str(first))
    mine, theirs = _both("smear_dsl.commands")
    assert sorted(mine) == sorted(theirs)
    assert ("club", "club_rules.cli:register") in mine and not any(n == "old" for n, _ in mine)
    assert any(n == "bots" for n, _ in mine)


def test_a_half_installed_plugin_leaves_the_other_commands_working(tmp_path):
    site = tmp_path / "site"
    _dist(site, "broken_plugin-1.dist-info", "[smear_dsl.commands]\nbroken = no_such_module_here:register\n")
    code = (f"import sys; sys.path.insert(0, {str(site)!r}); from smear_dsl.cli import main; "
            "sys.argv = ['smear-dsl', '--help']; main()")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "serve" in out.stdout and "check" in out.stdout


def test_help_reads_no_metadata_library():
    code = ("import sys; from smear_dsl.cli import main\ntry:\n main(['--help'])\nexcept SystemExit:\n pass\n"
            "print([m for m in ('importlib.metadata', 'smear_dsl.engine', 'smear_dsl.compile', 'yaml') "
            "if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().endswith("[]"), out.stdout + out.stderr
