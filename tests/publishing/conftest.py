"""The public site's demo fixtures, shared with the tests of every write path."""

from tests.site.conftest import demo, empty_page_cache  # noqa: F401
