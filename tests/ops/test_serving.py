"""Each serving process (newsroom/wsgi.py) loads what requests need, then freezes it out of the
garbage collector's walks (newsroom/serving.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
REPORT = """
import gc, sys
import newsroom.wsgi
print(gc.get_freeze_count(), "public.views" in sys.modules, type(newsroom.wsgi.application).__name__)
"""


def test_a_serving_process_has_its_views_loaded_and_frozen_before_its_first_request():
    result = subprocess.run(
        [sys.executable, "-c", REPORT], cwd=BASE_DIR, capture_output=True, text=True, check=True, timeout=120
    )
    frozen, views_loaded, application = result.stdout.split()
    # Django, the apps, the URLconf and its views: well over a hundred thousand objects.
    assert int(frozen) > 100_000
    assert views_loaded == "True"
    assert application == "WSGIHandler"
