"""Changes to the manifest store."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from django.db import DatabaseError, transaction
from django.db.models import Count
from django.utils import timezone

from .adapters import ManifestData
from .models import Claim, Manifest
from .provider import ProviderClient, ProviderError

logger = logging.getLogger(__name__)


def manifest_store(*, data: ManifestData, origin: str) -> tuple[Manifest, bool]:
    """Create or replace a manifest and its claims from adapter data; returns (manifest, created).

    A full manifest (with claims) replaces what a story import knew of it; its claims are
    replaced whole, so a claim the source withdrew does not linger.
    """
    with transaction.atomic():
        manifest, created = Manifest.objects.select_for_update().update_or_create(
            manifest_id=data.manifest_id,
            defaults={
                "title": data.title,
                "source_name": data.source_name,
                "source_url": data.source_url,
                "published_date": data.published_date,
                "brief_headline": data.brief_headline,
                "brief_summary": data.brief_summary,
                "origin": origin,
                "is_illustrative": data.is_illustrative,
                "fetched_at": timezone.now() if origin == Manifest.Origin.PROVIDER else None,
            },
        )
        if not created:
            manifest.claims.all().delete()
        Claim.objects.bulk_create(
            Claim(
                manifest=manifest,
                claim_id=claim.claim_id,
                position=index,
                text=claim.text,
                type=claim.type,
                confidence=claim.confidence,
            )
            for index, claim in enumerate(data.claims)
        )
    return manifest, created


FetchStatus = Literal["stored", "fetched", "missing", "error"]


@dataclass(frozen=True)
class FetchOutcome:
    """What became of one manifest id.

    ``stored``: already in the store with its claims, not fetched; ``fetched``: fetched from the
    provider and stored; ``missing``: the provider says it does not exist (a check fails);
    ``error``: the provider could not say (a check is unknown). ``manifest`` is the stored
    manifest whenever there is one, even after a failure (e.g. the story-import record).
    """

    status: FetchStatus
    message: str
    manifest: Manifest | None = None
    error: ProviderError | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("stored", "fetched")


def manifests_fetch(*, manifest_ids: list[str], refresh: bool = False) -> dict[str, FetchOutcome]:
    """Make sure each manifest is in the store with its claims, fetching from the provider.

    A manifest already stored with claims is reused without a request unless ``refresh``; one
    known only without claims (from a story import) is fetched. Returns one outcome per
    distinct id, in the order given. Never raises for a provider failure: it is an outcome.
    """
    ids = list(dict.fromkeys(manifest_ids))
    known = {
        manifest.manifest_id: manifest
        for manifest in Manifest.objects.filter(manifest_id__in=ids).annotate(claim_count=Count("claims"))
    }
    outcomes: dict[str, FetchOutcome] = {}
    wanted: list[str] = []
    for manifest_id in ids:
        manifest = known.get(manifest_id)
        if manifest is not None and manifest.claim_count and not refresh:
            outcomes[manifest_id] = FetchOutcome(
                "stored", f"already stored with {_claims(manifest.claim_count)} (origin: {manifest.origin})", manifest
            )
        else:
            wanted.append(manifest_id)
    if wanted:
        try:
            client = ProviderClient.from_settings()
        except ProviderError as error:
            for manifest_id in wanted:
                outcomes[manifest_id] = FetchOutcome("error", error.message, known.get(manifest_id), error)
        else:
            for manifest_id in wanted:
                outcomes[manifest_id] = _fetch_one(client, manifest_id, known.get(manifest_id))
    return {manifest_id: outcomes[manifest_id] for manifest_id in ids}


def _fetch_one(client: ProviderClient, manifest_id: str, stored: Manifest | None) -> FetchOutcome:
    # No transaction is open around the request: a slow provider must not hold database locks.
    try:
        data = client.fetch(manifest_id)
    except ProviderError as error:
        kept = "; the stored copy was kept" if stored is not None and getattr(stored, "claim_count", 0) else ""
        return FetchOutcome("missing" if error.missing else "error", error.message + kept, stored, error)
    try:
        manifest, _ = manifest_store(data=data, origin=Manifest.Origin.PROVIDER)
    except DatabaseError as error:
        logger.exception("manifest %r: the provider's reply could not be stored", manifest_id)
        return FetchOutcome("error", f"the provider's reply could not be stored: {error}", stored)
    return FetchOutcome("fetched", f"fetched from the provider with {_claims(len(data.claims))}", manifest)


def _claims(count: int) -> str:
    return f"{count} claim{'' if count == 1 else 's'}"
