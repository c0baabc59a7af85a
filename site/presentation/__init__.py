"""Words the site tells a game in (narration, refusals, places, sentence forms), shared by play,
examples and teach; below the apps, above core (docs/site.md)."""
