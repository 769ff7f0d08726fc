"""The wheel a user installs (pip, pipx): built from the source, installed in a fresh virtual
environment outside the repository, and every first command run from there.

The new environment gets its dependencies (grpcio, lark, ...) by a path line to this test run's
own site-packages, so the test needs no network; the package under test comes from the wheel
alone (this checkout's editable install is not on that path: its .pth hook is not processed)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import grpc
import pytest
from conftest import ROOT
from grpc_health.v1 import health_pb2, health_pb2_grpc


def _source_copy(dest: Path) -> Path:
    """The files a clone would have (tracked, and new ones not ignored), so the build leaves no trace here."""
    try:
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                               capture_output=True, check=True).stdout
        names = [n for n in files.decode().split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = None
    src = dest / "src"
    if names is None:
        shutil.copytree(ROOT, src, symlinks=True, ignore=shutil.ignore_patterns(".venv", ".git", "node_modules", "build"))
        return src
    for name in names:
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        original = ROOT / name
        if original.is_symlink():
            target.symlink_to(os.readlink(original))
        elif original.is_file():  # (a file deleted but not yet committed is left out)
            shutil.copy2(original, target)
    return src


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder of the new environment, a working folder outside the repository)."""
    tmp = tmp_path_factory.mktemp("package")
    src = _source_copy(tmp)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w",
                            str(tmp / "dist"), str(src)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    assert "deprecat" not in (build.stdout + build.stderr).lower(), build.stderr
    wheel = next((tmp / "dist").glob("smear_dsl-*.whl"))
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "smear_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps",
                    "--quiet", str(wheel)], check=True, capture_output=True)
    work = tmp / "work"
    work.mkdir()
    return venv / "bin", work


def run(installed, *args, club: Path | None = None, timeout=300):
    """`smear-dsl ARGS` of the new environment, in the working folder; `club`: $SMEAR_DSL_RULES."""
    bin_dir, work = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SMEAR_DSL_RULES")}
    if club is not None:
        env["SMEAR_DSL_RULES"] = str(club)
    return subprocess.run([str(bin_dir / "smear-dsl"), *args], capture_output=True, text=True, cwd=work, env=env,
                          timeout=timeout)


def test_the_package_comes_from_the_wheel(installed):
    bin_dir, work = installed
    code = ("import importlib.util, smear_dsl, smear_referee; print(smear_dsl.__file__, smear_referee.__file__, "
            "importlib.util.find_spec('server') is None)")
    where = subprocess.run([str(bin_dir / "python"), "-c", code], capture_output=True, text=True, cwd=work,
                           check=True).stdout.split()
    assert all(str(ROOT) not in w and "site-packages" in w for w in where[:2])
    assert where[2] == "True"  # no top-level package named `server`


def test_check_simulate_and_verify(installed):
    p = run(installed, "check", "four_point_ne_wisconsin", "cutthroat_canadian")
    assert p.returncode == 0 and "four_point_ne_wisconsin: ok" in p.stdout, p.stderr
    p = run(installed, "simulate", "four_point_ne_wisconsin", "--games", "5", "--seed", "3", "--record-dir", "games")
    assert p.returncode == 0 and "heuristic bots" in p.stdout, p.stderr
    records = sorted(str(f) for f in (installed[1] / "games").glob("*.json"))
    p = run(installed, "verify", *records)
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 5 and all(json.loads(x)["valid"] for x in p.stdout.splitlines())
    p = run(installed, "schema")
    assert json.loads(p.stdout)["$schema"].startswith("https://json-schema.org/")


def test_the_package_ships_the_schema_and_the_proto(installed):
    bin_dir, work = installed
    code = ("from importlib import resources; r = resources.files('smear_dsl'); "
            "print((r / 'rules' / 'rules.schema.json').is_file(), "
            "(r / 'proto' / 'smear' / 'referee' / 'v1' / 'referee.proto').is_file(), "
            "len(list((r / 'rules').glob('*.yaml'))))")
    out = subprocess.run([str(bin_dir / "python"), "-c", code], capture_output=True, text=True, cwd=work, check=True)
    assert out.stdout.split() == ["True", "True", str(len(list((ROOT / "rules").glob("*.yaml"))))]
    # Every released version ships, with the registry that says what each promises.
    p = run(installed, "check", "cinch@1", "auction_pitch@1", "pedro@1")
    assert p.returncode == 0 and "Cinch, version 1" in p.stdout, p.stdout + p.stderr
    code = "from smear_dsl.language.versions import registry; print(len(registry()['versions']))"
    out = subprocess.run([str(bin_dir / "python"), "-c", code], capture_output=True, text=True, cwd=work, check=True)
    assert int(out.stdout) == len(json.loads((ROOT / "rules" / "history" / "versions.json").read_text())["versions"])


def test_a_clubs_own_folder_of_rules(installed):
    club = installed[1] / "club"
    club.mkdir(exist_ok=True)
    (club / "thursday.yaml").write_text("extends: four_point_ne_wisconsin\nname: Thursday night\n"
                                        "options:\n  widow: {default: 2}\n")
    p = run(installed, "check", "thursday", club=club)
    assert p.returncode == 0 and "Thursday night" in p.stdout, p.stderr
    p = run(installed, "simulate", "thursday", "--games", "3", "--seed", "1", club=club)
    assert p.returncode == 0 and "widow" in p.stdout, p.stderr


def test_serve_answers_health_checks(installed):
    bin_dir, work = installed
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([str(bin_dir / "smear-dsl"), "serve", "--port", "0", "--db", "tables.sqlite3"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert "listening on" in line, proc.stderr.read() if proc.poll() is not None else line
        port = int(line.strip().rsplit(":", 1)[1])
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(service=""), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING
        from smear_referee.clients.client import Client
        c = Client(f"127.0.0.1:{port}")
        assert "four_point_ne_wisconsin" in {r.name for r in c.list_rules().rules}
        assert c.check_rules("extends: setback\nname: mine\n").ok  # the sandbox worker runs from the wheel too
        c.close()
    finally:
        proc.terminate()
        proc.wait(15)


def test_tournament_run(installed):
    t0 = time.time()
    p = run(installed, "tournament", "run", "--rules", "cutthroat_canadian", "--entrants", "3", "--rounds", "1",
            "--out", "club-night")
    assert p.returncode == 0, p.stderr
    out = installed[1] / "club-night"
    assert (out / "archive.json").is_file() and (out / "standings.html").is_file()
    assert "checks out" in p.stdout and time.time() - t0 < 300
    p = run(installed, "verify-tournament", str(out / "archive.json"))
    assert p.returncode == 0, p.stdout + p.stderr
