"""`python -m assistant` runs the `rummi` command line."""

import sys

from assistant.cli import main

sys.exit(main())
