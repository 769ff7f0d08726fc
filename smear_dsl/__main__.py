"""`python -m smear_dsl` is the `smear-dsl` command."""
from smear_dsl.cli import main

raise SystemExit(main())
