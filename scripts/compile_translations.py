"""Compile locale/*/LC_MESSAGES/django.po to .mo with polib: no GNU gettext needed."""

from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    for po_path in sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        polib.pofile(str(po_path)).save_as_mofile(str(mo_path))


if __name__ == "__main__":
    main()
