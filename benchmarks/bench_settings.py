"""Production settings with static files collected into a benchmark's temporary directory."""

import os
from pathlib import Path

from config.settings.production import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
