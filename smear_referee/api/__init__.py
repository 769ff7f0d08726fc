"""Generated from proto/smear/referee/v1/referee.proto by scripts/gen_proto.py; do not edit."""
