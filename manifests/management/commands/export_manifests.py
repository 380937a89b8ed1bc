import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from manifests.adapters import SynorbAdapter
from manifests.models import Manifest


class Command(BaseCommand):
    help = (
        "Write manifests with their claims in the shape import_manifests reads: a JSON array, or "
        "JSON Lines with --jsonl (for stores too big for one document). All of them, or those named by --id."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--id", dest="ids", action="extend", nargs="+", default=[], metavar="MANIFEST_ID", help="only these"
        )
        parser.add_argument("--output", "-o", default="-", help="a file to write (default: standard output)")
        parser.add_argument("--jsonl", action="store_true", help="one manifest a line instead of one array")

    def handle(self, *args, ids: list[str], output: str, jsonl: bool, **options):
        manifests = self._manifests(list(dict.fromkeys(ids)))
        exported = claims = failed = 0
        with self._output(output) as stream:
            stream.write("" if jsonl else "[", ending="")
            for manifest in manifests:
                payload = SynorbAdapter.from_manifest(manifest)
                problems = SynorbAdapter.problems(payload)
                if problems:
                    # One that import_manifests would refuse is left out, not written half-right.
                    failed += 1
                    for problem in problems:
                        self.stderr.write(f"{manifest.manifest_id}: {problem}")
                    continue
                stream.write(self._encode(payload, first=exported == 0, jsonl=jsonl), ending="")
                exported += 1
                claims += len(payload["signal"]["claims"])
            stream.write("" if jsonl else "\n]\n", ending="")
        summary = f"{exported} manifests exported with {claims} claims, {failed} left out"
        if failed:
            raise CommandError(summary)
        # Standard output may be the export itself: the summary goes beside it.
        self.stderr.write(self.style.SUCCESS(summary))

    def _manifests(self, ids: list[str]) -> Any:
        queryset = Manifest.objects.prefetch_related("claims")
        if not ids:
            return queryset.order_by("manifest_id").iterator(chunk_size=500)
        found = {manifest.manifest_id: manifest for manifest in queryset.filter(manifest_id__in=ids)}
        missing = [manifest_id for manifest_id in ids if manifest_id not in found]
        if missing:
            raise CommandError("not in the store: " + ", ".join(repr(manifest_id) for manifest_id in missing))
        return [found[manifest_id] for manifest_id in ids]

    @contextmanager
    def _output(self, output: str) -> Iterator[Any]:
        if output == "-":
            yield self.stdout
            return
        try:
            handle = Path(output).open("w", encoding="utf-8")  # noqa: SIM115  (closed below)
        except OSError as error:
            raise CommandError(f"{output}: cannot write: {error.strerror}") from None
        with handle:
            yield _Writer(handle)

    @staticmethod
    def _encode(payload: dict[str, Any], *, first: bool, jsonl: bool) -> str:
        if jsonl:
            return json.dumps(payload, ensure_ascii=False) + "\n"
        # An array item, indented as json.dumps(indent=2) would indent the whole array.
        text = json.dumps(payload, ensure_ascii=False, indent=2)
        return ("\n" if first else ",\n") + "\n".join("  " + line for line in text.splitlines())


class _Writer:
    """A file with the ``write(text, ending=...)`` of the command's own output streams."""

    def __init__(self, handle: Any):
        self.handle = handle

    def write(self, text: str, ending: str = "\n") -> None:
        self.handle.write(text + ending)
