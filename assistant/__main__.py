"""`python -m assistant` runs the domain's commands of `rummi` (table, meld, turn, score, solve, tournament).

The whole `rummi`, with the reader's commands (read, calibrate, watch), is `python -m rummi` (rummi.py): the
domain does not import the reader.
"""

import sys

from assistant.cli import main

sys.exit(main())
