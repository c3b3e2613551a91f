"""`python -m assistant`: the whole `rummi` command, as CONTRACT.md promises ("`python -m assistant` (run from
the repository root) does the same" as `rummi`).

This file is the launcher, not the domain: no module of `assistant` imports it, and it hands over to
`rummi.py`, which composes the domain's commands (`assistant.cli`) with the reader's (`vision`).
"""

import sys

from rummi import main

sys.exit(main())
