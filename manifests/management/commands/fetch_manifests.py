from django.core.management.base import BaseCommand, CommandError

from manifests.services import manifests_fetch

# Exit statuses, as verify_story uses them: 1 when something is decidedly wrong (a manifest
# does not exist), 3 when nothing is but the provider could not answer for some.
EXIT_MISSING = 1
EXIT_UNDECIDED = 3


class Command(BaseCommand):
    help = (
        "Fetch manifests by id from the manifest provider (MANIFEST_PROVIDER_URL) into the store. "
        "A manifest already stored with its claims is reused unless --refresh. Prints one line per "
        "id (id, outcome, message). Exit status: 0 all stored or fetched, 1 some do not exist, "
        "3 none missing but the provider could not answer for some."
    )

    def add_arguments(self, parser):
        parser.add_argument("manifest_ids", nargs="*", metavar="ID", help="manifest ids, exactly as cited")
        parser.add_argument(
            "--refresh", action="store_true", help="fetch again even when the store has the manifest's claims"
        )

    def handle(self, *args, manifest_ids: list[str], refresh: bool, **options):
        if not manifest_ids:
            raise CommandError("ID: give at least one manifest id")
        for position, manifest_id in enumerate(manifest_ids, start=1):
            if not manifest_id.strip():
                raise CommandError(f"ID: argument {position} is blank; give a manifest id")
        outcomes = manifests_fetch(manifest_ids=manifest_ids, refresh=refresh)
        counts = dict.fromkeys(("fetched", "stored", "missing", "error"), 0)
        for manifest_id, outcome in outcomes.items():
            counts[outcome.status] += 1
            line = f"{manifest_id}\t{outcome.status}\t{outcome.message}"
            self.stdout.write(line if outcome.ok else self.style.ERROR(line))
        summary = (
            f"{len(outcomes)} manifest{'s' if len(outcomes) != 1 else ''}: {counts['fetched']} fetched, "
            f"{counts['stored']} already stored, {counts['missing']} missing, {counts['error']} failed"
        )
        if counts["missing"]:
            raise CommandError(summary, returncode=EXIT_MISSING)
        if counts["error"]:
            raise CommandError(summary, returncode=EXIT_UNDECIDED)
        self.stdout.write(self.style.SUCCESS(summary))
