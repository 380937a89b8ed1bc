"""Cursor pagination with a hard cap on the page size.

Cursors stay correct while stories are published between two requests (an offset would
repeat or skip items) and cost one indexed query at any depth. A page size or a cursor that
cannot be used is a 400 naming the parameter, never a silent default or a traceback.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.db.models import QuerySet
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


def link_header(page: dict[str, Any]) -> str:
    """A page's next and previous links as an RFC 8288 ``Link`` header (GitHub's convention),
    for clients that page without reading the body; empty on a lone page."""
    links = [(page.get("next"), "next"), (page.get("previous"), "prev")]
    return ", ".join(f'<{url}>; rel="{rel}"' for url, rel in links if url)


class Cursor(CursorPagination):
    page_size = DEFAULT_PAGE_SIZE
    max_page_size = MAX_PAGE_SIZE
    page_size_query_param = "page_size"
    invalid_cursor_message = "This cursor is not one the API gave out: follow the next and previous links."

    def get_ordering(self, request: Request, queryset: QuerySet, view: APIView) -> tuple[str, ...]:
        # Each view names its own order; the first field is the cursor's position.
        return tuple(getattr(view, "cursor_ordering", None) or self.ordering)

    def get_page_size(self, request: Request) -> int:
        value = request.query_params.get(self.page_size_query_param)
        if value is None:
            return self.page_size
        if not value.isdigit() or not 1 <= int(value) <= self.max_page_size:
            raise ValidationError(
                {self.page_size_query_param: [f"Must be a whole number from 1 to {self.max_page_size}, not {value!r}."]}
            )
        return int(value)

    def paginate_queryset(self, queryset: QuerySet, request: Request, view: APIView | None = None) -> list[Any] | None:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            raise self._bad_cursor() from None
        except (DjangoValidationError, ValueError, OverflowError, DataError):
            if self.cursor_query_param not in request.query_params:
                raise  # not the cursor's doing
            # A cursor whose position is not a value of the ordering field (a hand-made one).
            raise self._bad_cursor() from None

    def get_paginated_response(self, data: Any) -> Response:
        response = super().get_paginated_response(data)
        link = link_header(response.data)
        if link:
            response["Link"] = link
        return response

    def _bad_cursor(self) -> ValidationError:
        return ValidationError({self.cursor_query_param: [self.invalid_cursor_message]})

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["description"] = f"Items per page, {DEFAULT_PAGE_SIZE} by default, at most {MAX_PAGE_SIZE}."
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        return parameters
