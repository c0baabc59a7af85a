"""Puts the repository root and the site/ source root on sys.path for WSGI/ASGI servers."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

for entry in (ROOT / "site", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))
