"""Submit an admin form as a browser would: every field as the page shows it, one changed."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _FormFields(HTMLParser):
    """The fields of the page's model form (``<form id="story_form" …>``; not the logout form
    in the header), with the values a browser sends."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: list[tuple[str, str]] = []
        self._in_form = False
        self._done = False
        self._textarea: str | None = None
        self._text: list[str] = []
        self._select: str | None = None
        self._multiple = False
        self._options: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form" and attributes.get("id", "").endswith("_form") and not self._done:
            self._in_form = True
        if not self._in_form:
            return
        name = attributes.get("name")
        if tag == "input" and name:
            kind = attributes.get("type", "text").lower()
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            self.fields.append((name, attributes.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []
        elif tag == "select" and name:
            self._select, self._options, self._multiple = name, [], "multiple" in attributes
        elif tag == "option" and self._select is not None:
            self._options.append((attributes.get("value", ""), "selected" in attributes))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea" and self._textarea is not None:
            text = "".join(self._text)
            self.fields.append((self._textarea, text[1:] if text.startswith("\n") else text))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            chosen = [value for value, selected in self._options if selected]
            if self._multiple:
                # A multiple select sends each chosen value (a list here), or nothing.
                self.fields.append((self._select, chosen))
            else:
                self.fields.append((self._select, chosen[0] if chosen else ""))
            self._select = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def form_fields(html: str) -> dict[str, Any]:
    parser = _FormFields()
    parser.feed(html)
    return dict(parser.fields)


def submit_changed(client: Any, url: str, field: str, change: Any, *, extra: Any = None) -> Any:
    """GET the admin form at ``url``, apply ``change`` to ``field``'s value (and ``extra`` to
    the whole form, to add an inline row), POST it back."""
    page = client.get(url)
    assert page.status_code == 200, (url, page.status_code)
    data = form_fields(page.content.decode())
    assert field in data, (field, sorted(data))
    data[field] = change(data[field])
    if extra is not None:
        extra(data)
    data["_save"] = "Save"
    return client.post(url, data)
