"""Map a provider's manifest reply to our models. Another provider means another adapter here.

The Synorb shape (also the shape of manifest files):
``{"manifest_id", "title", "source": {"name", "url", "published_date"},
"brief": {"headline", "summary"}, "signal": {"claims": [{"claim_id", "text", "type", "confidence"}]}}``
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema

from newsroom.cleantext import json_text_problems
from newsroom.jsonfiles import DocumentError, Problem, schema_problems

if TYPE_CHECKING:
    from .models import Manifest

SCHEMA_PATH = Path(__file__).parent / "schemas" / "manifest.schema.json"


@dataclass(frozen=True)
class ClaimData:
    claim_id: str
    text: str
    type: str = ""
    confidence: float | None = None


@dataclass(frozen=True)
class ManifestData:
    """A manifest as our store holds it, whatever provider it came from."""

    manifest_id: str
    title: str
    source_name: str
    source_url: str = ""
    published_date: date | None = None
    brief_headline: str = ""
    brief_summary: str = ""
    claims: list[ClaimData] = field(default_factory=list)
    is_illustrative: bool = False


# The fields of a manifest written as several lines; every other one is a line.
MULTILINE_FIELDS = frozenset({"brief.summary"})


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


class SynorbAdapter:
    """The Synorb REST manifest shape."""

    @staticmethod
    def to_manifest(payload: Any) -> ManifestData:
        """ManifestData from one reply; DocumentError names each problem by its JSON path."""
        problems = SynorbAdapter.problems(payload)
        if problems:
            raise DocumentError(problems)
        source = payload["source"]
        published = source.get("published_date")
        try:
            published_date = date.fromisoformat(published[:10]) if published else None
        except ValueError:
            raise DocumentError([Problem("source.published_date", f"{published!r} is not a real date")]) from None
        claims = payload["signal"]["claims"]
        seen: set[str] = set()
        for index, claim in enumerate(claims):
            if claim["claim_id"] in seen:
                raise DocumentError(
                    [Problem(f"signal.claims[{index}].claim_id", f"{claim['claim_id']!r} appears twice")]
                )
            seen.add(claim["claim_id"])
        brief = payload.get("brief") or {}
        return ManifestData(
            manifest_id=payload["manifest_id"],
            title=payload["title"],
            source_name=source["name"],
            source_url=source.get("url") or "",
            published_date=published_date,
            brief_headline=brief.get("headline") or "",
            brief_summary=brief.get("summary") or "",
            claims=[
                ClaimData(
                    claim_id=claim["claim_id"],
                    text=claim["text"],
                    type=claim.get("type") or "",
                    confidence=claim.get("confidence"),
                )
                for claim in claims
            ],
            is_illustrative=payload.get("illustrative", False),
        )

    @staticmethod
    def from_manifest(manifest: Manifest) -> dict[str, Any]:
        """A stored manifest in this shape, for files of manifests: ``to_manifest`` reads it back
        to the same fields. Its claims in order (prefetch ``claims`` for many manifests)."""
        payload: dict[str, Any] = {
            "manifest_id": manifest.manifest_id,
            "title": manifest.title,
            "source": {
                "name": manifest.source_name,
                "url": manifest.source_url,
                "published_date": manifest.published_date.isoformat() if manifest.published_date else None,
            },
            "brief": {"headline": manifest.brief_headline, "summary": manifest.brief_summary},
            "signal": {
                "claims": [
                    {"claim_id": claim.claim_id, "text": claim.text, "type": claim.type, "confidence": claim.confidence}
                    for claim in sorted(manifest.claims.all(), key=lambda claim: claim.position)
                ]
            },
        }
        if manifest.is_illustrative:
            payload["illustrative"] = True
        return payload

    @staticmethod
    def problems(payload: Any) -> list[Problem]:
        """What in a payload this shape refuses, each named by its JSON path."""
        return (
            schema_problems(_validator(), payload)
            or list(json_text_problems(payload, multiline=MULTILINE_FIELDS.__contains__))[:50]
        )
