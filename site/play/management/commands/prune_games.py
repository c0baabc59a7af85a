"""Delete stored demo games: finished ones after some days, abandoned ones sooner."""

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from play.models import Game


class Command(BaseCommand):
    help = ("Delete finished games older than --finished-days (by their end) and unfinished, "
            "abandoned games untouched for --abandoned-days; their logs go with them.")

    def add_arguments(self, parser):
        parser.add_argument("--finished-days", type=float,
                            default=settings.PLAY_KEEP_FINISHED_DAYS)
        parser.add_argument("--abandoned-days", type=float,
                            default=settings.PLAY_KEEP_ABANDONED_DAYS)
        parser.add_argument("--dry-run", action="store_true",
                            help="only count what would be deleted")

    def handle(self, *args, finished_days: float, abandoned_days: float, dry_run: bool,
               **options):
        if finished_days < 0 or abandoned_days < 0:
            raise CommandError("ages must not be negative")
        now = timezone.now()
        finished = Game.objects.filter(over=True, finished__lt=now - timedelta(
            days=finished_days))
        abandoned = Game.objects.filter(over=False, updated__lt=now - timedelta(
            days=abandoned_days))
        counts = (finished.count(), abandoned.count())
        if not dry_run:
            finished.delete()
            abandoned.delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(f"{verb} {counts[0]} finished and {counts[1]} abandoned games")
