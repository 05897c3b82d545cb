"""``python -m saloon``: the same as the ``saloon`` command."""

import sys

from saloon.cli import main

sys.exit(main())
