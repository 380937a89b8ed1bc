"""``reverse()`` remembered: a URL is a pure function of the URLconf, the script prefix, the
view name and its arguments, and reversing one costs the resolver far more than a lookup.
A story page rendered anew needs about ten (its own address, its newsroom's, beat's, feeds',
edition's and the reuse terms'), which were a tenth of its time.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse


@lru_cache(maxsize=4096)
def _reverse(urlconf: str, prefix: str, viewname: str, kwargs: tuple[tuple[str, str | int], ...]) -> str:
    return reverse(viewname, urlconf, kwargs=dict(kwargs))


def cached_reverse(viewname: str, **kwargs: str | int) -> str:
    """``reverse(viewname, kwargs=kwargs)``, remembered per URLconf and script prefix."""
    [url] = cached_reverse_all((viewname, kwargs))
    return url


def cached_reverse_all(*targets: tuple[str, dict[str, str | int]]) -> list[str]:
    """``cached_reverse`` of each (viewname, kwargs), reading the URLconf and the script prefix
    (thread- and task-local values, each read costing a few microseconds) once for all."""
    # The prefix is read here only to key the cache: reverse() itself reads the same one.
    urlconf, prefix = get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()
    return [_reverse(urlconf, prefix, viewname, tuple(kwargs.items())) for viewname, kwargs in targets]


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    # Tests that swap the URLconf in place (same module name, new patterns) clear Django's
    # resolver caches; this one goes with them.
    if setting == "ROOT_URLCONF":
        _reverse.cache_clear()
