import json
import os
import secrets
from datetime import UTC, timedelta
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

import manifests
import stories
from manifests.adapters import SynorbAdapter
from manifests.models import Manifest
from manifests.services import manifest_store
from newsroom.models import Disclosure, Label, Newsroom, Writer
from stories import desk
from stories.models import Cite
from stories.services import site_texts_add_from

SEEDS = Path(stories.__file__).parent / "fixtures" / "seeds"
DEMO_MANIFESTS = Path(manifests.__file__).parent / "fixtures" / "demo-manifests.json"
# Manifests a newcomer's first story can cite: each dated ``days_before_load`` days before the
# day load_demo runs, so they are recent within VERIFY_RECENT_DAYS when the story is checked.
RECENT_MANIFESTS = Path(manifests.__file__).parent / "fixtures" / "demo-manifests-recent.json"
# Where a newcomer writes: it does not publish by itself, so an editor submits and a chief
# publishes, as a real desk works.
DEMO_DESK = {"slug": "demo-desk", "title": "Demo desk"}

_RUN_THEM = "Run the Manifests yourself to verify."
_PROMISE = (
    "every cited Manifest id exists and is recent, claim ids belong to their Manifest, the story does not "
    "repeat a recent story, and each paragraph is supported by the claims it cites"
)
# What a disclosure says after "Written by ... from the Synorb Manifests listed here", by label.
_MADE = {
    Label.CHECKED: f" and published after server-side checks: {_PROMISE}.",
    Label.CONFIRMED: (
        f" and published after server-side checks: {_PROMISE}; where the rules could not show a paragraph's "
        "support, an editor read it beside its claims and confirmed it."
    ),
    Label.OVERRIDDEN: (
        ". The desk published it although some server-side checks did not pass; which ones, and why, is "
        "stated at the top of the story."
    ),
    Label.UNCHECKED: (" and published without server-side checks, for the reason stated at the top of the story."),
}
_WRITTEN_BY = {Writer.AGENT: "an agent", Writer.PERSON: "the newsroom"}
# The disclosure for each label and kind of writer the seeds do not carry (theirs is a checked
# story's by an agent): only checked and confirmed stories promise the checks, and only an
# agent's story says an agent wrote it. An admin adds such versions; the demo adds these.
DEMO_DISCLOSURES = {
    (label, writer): f"Written by {who} from the Synorb Manifests listed here{made} {_RUN_THEM}"
    for writer, who in _WRITTEN_BY.items()
    for label, made in _MADE.items()
    if (label, writer) != (Label.CHECKED, Writer.AGENT)
}


class Command(BaseCommand):
    help = (
        "Load the demo newsroom: the demo manifests (illustrative claim texts), the site-wide "
        "texts the seeds carry, the two seed stories, published, a few illustrative manifests "
        "dated relative to today for a new story to cite, the Demo desk newsroom to write it in, "
        "and an admin user. Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--username", default=os.getenv("DJANGO_SUPERUSER_USERNAME", "admin"))

    def handle(self, *args, username: str, **options):
        if DEMO_MANIFESTS.exists():
            call_command("import_manifests", str(DEMO_MANIFESTS), stdout=self.stdout, stderr=self.stderr)
        self._add_site_texts()
        self._ensure_demo_newsrooms()
        # Through the gate, as any import: the seeds are checked against the demo manifests and
        # published when they pass.
        call_command("import_desk", str(SEEDS), stdout=self.stdout, stderr=self.stderr)
        self._load_recent_manifests()
        Newsroom.objects.get_or_create(slug=DEMO_DESK["slug"], defaults={"title": DEMO_DESK["title"]})
        self._ensure_admin(username)

    def _load_recent_manifests(self) -> None:
        """Store the recent demo manifests, dated relative to today (UTC, as the checks count).

        Run again on a later day, a manifest no story cites yet is dated afresh, so it stays
        recent; one a story already cites keeps its date and claims, so what its checks found
        (and any published version showing it) stays true.
        """
        today = timezone.now().astimezone(UTC).date()
        cited = set(Cite.objects.values_list("manifest_id", flat=True).distinct())
        for entry in json.loads(RECENT_MANIFESTS.read_text()):
            payload = entry["manifest"]
            manifest_id = payload["manifest_id"]
            if manifest_id in cited and Manifest.objects.filter(manifest_id=manifest_id).exists():
                self.stdout.write(f"{manifest_id}\tkept (a story cites it)")
                continue
            published = today - timedelta(days=entry["days_before_load"])
            dated = payload | {"source": payload["source"] | {"published_date": published.isoformat()}}
            with transaction.atomic():
                manifest_store(data=SynorbAdapter.to_manifest(dated), origin=Manifest.Origin.FILE)
            self.stdout.write(f"{manifest_id}\tdated {published.isoformat()}")

    def _ensure_demo_newsrooms(self) -> None:
        """The seeds' newsrooms, publishing automatically when a story's checks pass."""
        for seed in sorted(SEEDS.glob("*.json")):
            document = json.loads(seed.read_text())
            Newsroom.objects.update_or_create(
                slug=document["newsroom"], defaults={"title": document["newsroom_title"], "auto_publish": True}
            )

    def _add_site_texts(self) -> None:
        """Add, as an admin would, the versions of the site-wide texts the seeds carry (an import
        never adds one): each in force from the publication of the first seed that carries it,
        so each seed imports with its exact blocks and points at the version of its day."""
        documents = [json.loads(path.read_text()) for path in SEEDS.glob("*.json")]
        ordered = sorted(documents, key=lambda document: document["published_at"])
        added = sum(len(site_texts_add_from(document)) for document in ordered)
        self.stdout.write(f"{added} site-wide text versions added from the seeds.")
        first = min(desk.parse_utc(document["published_at"]) for document in documents)
        added = 0
        for (label, writer), text in DEMO_DISCLOSURES.items():
            version = Disclosure.from_content({"text": text}, effective_from=first)
            if not Disclosure.objects.filter(fingerprint=version.fingerprint).exists():
                version.label, version.writer = label, writer
                version.full_clean()
                version.save()
                added += 1
        self.stdout.write(f"{added} disclosure versions added for the other labels and for stories by people.")

    def _ensure_admin(self, username: str) -> None:
        users = get_user_model().objects
        if users.filter(username=username).exists():
            self.stdout.write(f"Admin user {username!r} already exists; its password is unchanged.")
            return
        password = os.getenv("DJANGO_SUPERUSER_PASSWORD")
        users.create_superuser(
            username=username, email="", password=password or (generated := secrets.token_urlsafe(12))
        )
        if password:
            self.stdout.write(f"Created admin user {username!r} with the password from DJANGO_SUPERUSER_PASSWORD.")
        else:
            # Printed once: it is stored only as a hash.
            self.stdout.write(self.style.WARNING(f"Created admin user {username!r} with password: {generated}"))
