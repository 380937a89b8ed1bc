from tests.api.conftest import people  # noqa: F401
from tests.site.conftest import demo, empty_page_cache  # noqa: F401
from tests.workflow.conftest import switch_broker  # noqa: F401
