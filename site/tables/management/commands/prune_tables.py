"""Delete tables of friends like demo games: tables with no game left (never played, or
their games pruned by prune_games) untouched for some days, and any table untouched for
longer; a game still running keeps its table."""

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tables.models import Table


class Command(BaseCommand):
    help = (
        "Delete tables without a game untouched for --abandoned-days, and tables untouched "
        "for --finished-days whose games are over; their seats and rounds go with them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--finished-days", type=float, default=settings.PLAY_KEEP_FINISHED_DAYS)
        parser.add_argument(
            "--abandoned-days", type=float, default=settings.PLAY_KEEP_ABANDONED_DAYS
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="only count what would be deleted"
        )

    def handle(self, *args, finished_days: float, abandoned_days: float, dry_run: bool, **options):
        if finished_days < 0 or abandoned_days < 0:
            raise CommandError("ages must not be negative")
        now = timezone.now()
        running = Table.objects.filter(rounds__game__over=False).values("pk")
        empty = Table.objects.filter(
            rounds__isnull=True, updated__lt=now - timedelta(days=abandoned_days)
        )
        old = Table.objects.filter(updated__lt=now - timedelta(days=finished_days)).exclude(
            pk__in=running
        )
        doomed = (empty | old).exclude(pk__in=running).distinct()
        count = doomed.count()
        if not dry_run:
            Table.objects.filter(pk__in=list(doomed.values_list("pk", flat=True))).delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(f"{verb} {count} tables")
