#!/usr/bin/env python
"""Django's command-line utility for the Stress rules site."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# site/ is a source root, not a package: the stdlib module `site` owns that name.
sys.path.insert(0, str(ROOT / "site"))
sys.path.insert(0, str(ROOT))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
