"""The web client's checked-in build (smear_referee/static, clients/web/src/gen) is what its sources
and the proto make now. Needs the client's npm modules (`make test` installs them with Node.js)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

WEB = ROOT / "clients" / "web"


@pytest.mark.skipif(not (WEB / "node_modules" / ".bin" / "esbuild").exists() or not shutil.which("node"),
                    reason="the web client's npm modules are not installed (make test installs them where npm is)")
def test_the_checked_in_web_client_is_current(tmp_path):
    env = dict(os.environ, SMEAR_WEB_GEN=str(tmp_path / "gen"), SMEAR_WEB_OUT=str(tmp_path / "static"),
               PYTHON=sys.executable)
    out = subprocess.run(["node", "build.mjs"], cwd=WEB, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    fresh_gen = (tmp_path / "gen" / "smear/referee/v1/referee_pb.js").read_text()
    assert fresh_gen == (WEB / "src/gen/smear/referee/v1/referee_pb.js").read_text(), \
        "clients/web/src/gen is stale: run `npm run build` in clients/web"
    for name in ("app.js", "index.html", "style.css"):
        assert (tmp_path / "static" / name).read_bytes() == (ROOT / "smear_referee/static" / name).read_bytes(), \
            f"smear_referee/static/{name} is stale: run `npm run build` in clients/web"
