"""`python -m smear_dsl` is the `smear-dsl` command."""
from .cli import main

raise SystemExit(main())
