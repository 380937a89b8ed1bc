"""Middleware that only some routes need, run only on those routes.

Every entry of MIDDLEWARE costs every request a layer, even one whose middleware only looks at
the path and passes the request on; a bare view behind the site's stack paid more for those
layers than for its view. ``scoped`` makes one MIDDLEWARE entry of several middleware that act
only under some paths: a request elsewhere goes straight on, the others go through them in
order, as if each had an entry of its own (an error raised in one becomes a response for those
above it, as Django makes it between entries).

Only for middleware with no ``process_view``, ``process_exception`` or
``process_template_response``: Django collects those from its own entries, and would not see
them here, so building one refuses it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponseBase
from django.utils.module_loading import import_string

from newsroom.ops.csp import is_admin_request

GetResponse = Callable[[HttpRequest], HttpResponseBase]
HOOKS = ("process_view", "process_exception", "process_template_response")


def scoped(applies: Callable[[HttpRequest], bool], *middleware: str) -> Callable[[GetResponse], GetResponse]:
    """A middleware factory for MIDDLEWARE: ``middleware`` (dotted paths, outermost first) for the
    requests ``applies`` accepts, nothing for the others."""

    def factory(get_response: GetResponse) -> GetResponse:
        chain = get_response
        for path in reversed(middleware):
            try:
                instance = import_string(path)(chain)
            except MiddlewareNotUsed:
                continue
            hooks = [hook for hook in HOOKS if hasattr(instance, hook)]
            if hooks:
                raise ImproperlyConfigured(f"{path} has {', '.join(hooks)}: give it an entry of its own in MIDDLEWARE.")
            chain = convert_exception_to_response(instance)

        def scoped_middleware(request: HttpRequest) -> HttpResponseBase:
            return chain(request) if applies(request) else get_response(request)

        return scoped_middleware

    return factory


# For the admin's pages alone: its messages, the editor's time zone and its
# Content-Security-Policy. The messages middleware cost every public page and API answer more
# than any other entry of the stack, for messages only the admin adds and shows (the admin's
# check for it, admin.E409, is answered by ops.E003 instead).
ADMIN_MIDDLEWARE = (
    "django.contrib.messages.middleware.MessageMiddleware",
    "newsroom.usertime.DeskTimeZoneMiddleware",
    "newsroom.ops.csp.AdminContentSecurityPolicyMiddleware",
)
admin_middleware = scoped(is_admin_request, *ADMIN_MIDDLEWARE)
