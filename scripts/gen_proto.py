"""Regenerate the checked-in Python code for proto/ (run after editing a .proto file).

Usage: python scripts/gen_proto.py [--check]
With --check it regenerates into a temporary folder and exits 1 if the checked-in code differs.
The generated service modules import their messages relatively, so `smear_referee.api` is self-contained.
referee_connect.py (the Connect protocol, for browsers) comes from protoc-gen-connect-python (a dev dependency).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "smear_dsl" / "proto"  # shipped in the package; ROOT/proto links here
PROTOS = ["smear/referee/v1/referee.proto"]
OUT = ROOT / "smear_referee" / "api"
FILES = ["referee_pb2.py", "referee_pb2.pyi", "referee_pb2_grpc.py", "referee_connect.py"]


def generate(into: Path) -> None:
    import grpc_tools
    from grpc_tools import protoc

    include = str(Path(grpc_tools.__file__).parent / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        plugin = shutil.which("protoc-gen-connect-python", path=str(Path(sys.executable).parent)) or \
            shutil.which("protoc-gen-connect-python")
        if plugin is None:
            raise SystemExit("protoc-gen-connect-python is not installed: pip install -e '.[dev]'")
        args = ["protoc", f"-I{PROTO_ROOT}", f"-I{include}", f"--python_out={tmp}", f"--pyi_out={tmp}",
                f"--grpc_python_out={tmp}", f"--plugin=protoc-gen-connect-python={plugin}",
                f"--connect-python_out={tmp}", *[str(PROTO_ROOT / p) for p in PROTOS]]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed")
        gen = Path(tmp) / "smear" / "referee" / "v1"
        into.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            text = (gen / name).read_text()
            text = text.replace("from smear.referee.v1 import referee_pb2 as", "from . import referee_pb2 as")
            text = text.replace("import smear.referee.v1.referee_pb2 as", "from . import referee_pb2 as")
            (into / name).write_text(text)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true", help="fail if the checked-in code is stale")
    args = ap.parse_args()
    if not args.check:
        generate(OUT)
        print(f"generated {', '.join(FILES)} in {OUT.relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        stale = [n for n in FILES if not (OUT / n).exists() or (OUT / n).read_text() != (Path(tmp) / n).read_text()]
    if stale:
        print(f"stale generated code: {', '.join(stale)}; run python scripts/gen_proto.py", file=sys.stderr)
        return 1
    print("generated code is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
