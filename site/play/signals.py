"""Signals of the play app: who else needs to know that a stored game changed.

`game_changed` is sent after a change of a game's row is stored (play.service.play), with
`row` (the row as written: its new version and log length), `entries` (the log entries
the change added), `wake_ms` (play.service.wake_in_ms after the change: when the game
will next change by itself) and `quiet` (the change shows nothing new on any screen: a
refused move's log entry alone, play.service.Turn.quiet). live.publish tells the game's open
sockets of every change but a quiet one; play itself needs none of it.
"""

from django.dispatch import Signal

game_changed = Signal()
