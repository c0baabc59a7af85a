"""English as this site writes it: British, like its spelling ("centre"), so a printed
sheet is dated "1 December 2026" rather than Django's American "Dec. 1, 2026"."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j M Y"
