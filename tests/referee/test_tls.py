"""`serve --tls-cert --tls-key`: gRPC and the web port both over TLS (a self-signed certificate made
with openssl for the test), and nothing in plain text."""
from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import sys
import urllib.request

import grpc
import pytest
from referee_harness import ServerProcess

from smear_referee.api import referee_pb2 as pb
from smear_referee.api import referee_pb2_grpc as pb_grpc


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem")], check=True, capture_output=True)
    return d / "cert.pem", d / "key.pem"


def test_grpc_and_the_web_port_speak_tls_only(cert, tmp_path):
    srv = ServerProcess(str(tmp_path / "r.sqlite3"), "--web", "0", "--tls-cert", str(cert[0]), "--tls-key", str(cert[1]))
    try:
        assert srv.url.startswith("https://")
        creds = grpc.ssl_channel_credentials(root_certificates=cert[0].read_bytes())
        with grpc.secure_channel(f"localhost:{srv.port}", creds) as ch:
            names = [r.name for r in pb_grpc.RefereeStub(ch).ListRules(pb.ListRulesRequest(), timeout=10).rules]
        assert "four_point_ne_wisconsin" in names
        with grpc.insecure_channel(srv.target) as ch:  # plain text is refused
            with pytest.raises(grpc.RpcError) as e:
                pb_grpc.RefereeStub(ch).ListRules(pb.ListRulesRequest(), timeout=5)
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE
        trusted = ssl.create_default_context(cafile=str(cert[0]))
        base = srv.url.replace("127.0.0.1", "localhost").rstrip("/")
        with urllib.request.urlopen(base + "/", context=trusted, timeout=10) as r:
            assert b'<main id="app">' in r.read()
            assert r.headers["strict-transport-security"].startswith("max-age=")  # HSTS under TLS only
        req = urllib.request.Request(base + "/smear.referee.v1.Referee/ListTables", data=b"{}",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, context=trusted, timeout=10) as r:
            assert json.loads(r.read()) == {}
        with pytest.raises(OSError):  # no answer in plain text (RemoteDisconnected, reset, ...)
            urllib.request.urlopen(base.replace("https://", "http://") + "/", timeout=5).read()
    finally:
        srv.stop()


def test_a_bad_certificate_or_a_key_of_another_says_what_is_wrong(cert, tmp_path):
    """`serve` refuses to start in one line naming the problem, not "a port is in use"."""
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=other",
                    "-keyout", str(other / "key.pem"), "-out", str(other / "cert.pem")], check=True, capture_output=True)
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    broken = tmp_path / "broken.pem"
    broken.write_text("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    from smear_referee.app import BadTls, check_tls
    cases = [((junk, cert[1]), "is not a PEM certificate"),
             ((cert[0], junk), "is not a PEM private key"),
             ((cert[0], other / "key.pem"), "is not the key of the certificate"),
             ((broken, cert[1]), "does not load"),
             ((tmp_path / "missing.pem", cert[1]), "cannot read the TLS certificate")]
    for (c, k), said in cases:
        with pytest.raises(BadTls) as e:
            check_tls(str(c), str(k))
        assert said in str(e.value) and "\n" not in str(e.value)
    # And `serve` says it in one line, not "a port is in use".
    run = subprocess.run([sys.executable, "-m", "smear_dsl", "serve", "--port", "0", "--db", str(tmp_path / "r.db"),
                          "--tls-cert", str(cert[0]), "--tls-key", str(other / "key.pem")], capture_output=True,
                         text=True, timeout=60)
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode != 0 and len(lines) == 1 and "is not the key of the certificate" in lines[0], run.stderr
    assert "port" not in lines[0] and "Traceback" not in run.stderr
