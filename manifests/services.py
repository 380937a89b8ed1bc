"""Changes to the manifest store."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .adapters import ManifestData
from .models import Claim, Manifest


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
