"""Signals of the play app: who else needs to know that a stored game changed.

`game_changed` is sent after a change of a game's row is stored (play.service.play), with
`row` (the row as written: its new version and log length) and `entries` (the log entries
the change added). live.publish tells the game's open sockets; play itself needs none of it.
"""

from django.dispatch import Signal

game_changed = Signal()
