"""The OpenAPI schema as generated clients read it: anonymous reads declare no security, and the
story document is the desk/1 JSON Schema itself, not a bare object.

- ``SiteAutoSchema``: drf-spectacular declares an anonymous read ``security: [{}]`` ("optional,
  with no scheme"), from which openapi-python-client makes every read demand an authenticated
  client. A read that needs no token declares none; a write keeps its Bearer requirement.
- ``add_desk1_components``: a postprocessing hook that adds ``stories/schemas/desk-1.schema.json``
  (JSON Schema 2020-12) to the components as ``Desk1Story``, written in the schema's OpenAPI 3.0
  dialect: its ``$defs`` become components of their own (``Desk1_<name>``), ``const`` an enum of
  one, a type list with ``null`` (or an ``anyOf`` with a null branch) a ``nullable`` type. The
  story detail's answer and a submission's body refer to it (``DESK1_STORY``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from drf_spectacular.openapi import AutoSchema

import stories

DESK1_SCHEMA = Path(stories.__file__).parent / "schemas" / "desk-1.schema.json"
DESK1_NAME = "Desk1Story"
# A raw schema drf-spectacular places as it is: a reference to the component the hook adds.
DESK1_STORY = {"$ref": f"#/components/schemas/{DESK1_NAME}"}


class SiteAutoSchema(AutoSchema):
    def get_auth(self) -> list[dict[str, Any]]:
        auths = super().get_auth()
        # Only the "anonymous allowed" entry: the operation needs no token, so it declares none.
        return [] if auths == [{}] else auths


def _openapi_30(node: Any) -> Any:
    """A JSON Schema 2020-12 node in OpenAPI 3.0's dialect, its local references re-pointed."""
    if isinstance(node, list):
        return [_openapi_30(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$schema", "$id", "$defs"):
            continue
        if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
            converted[key] = f"#/components/schemas/Desk1_{value.removeprefix('#/$defs/')}"
        elif key == "const":
            converted["enum"] = [value]
        elif key == "type" and isinstance(value, list):
            kinds = [kind for kind in value if kind != "null"]
            if len(kinds) == 1:
                converted["type"] = kinds[0]
            else:
                converted["anyOf"] = [{"type": kind} for kind in kinds]
            if "null" in value:
                converted["nullable"] = True
        elif key in ("anyOf", "oneOf") and {"type": "null"} in value:
            # 'X or null': OpenAPI 3.0 has no null type; the schema is X, nullable.
            rest = [_openapi_30(item) for item in value if item != {"type": "null"}]
            if len(rest) == 1:
                converted.update(rest[0])
            else:
                converted[key] = rest
            converted["nullable"] = True
        elif key in ("properties", "patternProperties"):
            converted[key] = {name: _openapi_30(child) for name, child in value.items()}
        else:
            converted[key] = _openapi_30(value)
    return converted


@cache
def desk1_components() -> dict[str, Any]:
    """The desk/1 schema's components: the story and each of its definitions."""
    source = json.loads(DESK1_SCHEMA.read_text())
    components = {f"Desk1_{name}": _openapi_30(definition) for name, definition in source.get("$defs", {}).items()}
    # Generators name a model by its title: the component's name, not the document's prose title.
    components[DESK1_NAME] = {**_openapi_30(source), "title": DESK1_NAME}
    return components


def add_desk1_components(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the desk/1 components beside the generated ones."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(desk1_components())
    return result
