"""Make the TUI test helpers importable as ``tui_helpers``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
