"""The JSON Schema of content files, exported from the models.

The committed copy at ``spec/schema/rootlaw.schema.json`` is what content files name
in ``"$schema"``; ``rootlaw schema --check`` fails when it is stale.  Scenario files
have theirs beside it (``scenario.schema.json``), built from the scenario keys in
rootlaw.runtime.scenario and checked by the same command.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import TypeAdapter

from .models import Document

SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "rootlaw.schema.json"
SCENARIO_SCHEMA_PATH = SCHEMA_PATH.parent / "scenario.schema.json"


def schema() -> dict:
    s = TypeAdapter(Document).json_schema()
    s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    s["title"] = "rootlaw content file"
    s["description"] = ("A rootlaw content document: a pack manifest, a map, a deck, a "
                        "faction, a library of programs or a patch (JSON Patch, RFC 6902, "
                        "of a map, deck or faction). Optional '$schema' names this file.")
    # Content files carry "$schema" (the loader drops it); the models do not define it.
    for name in ("PackSpec", "MapSpec", "DeckSpec", "FactionSpec", "PatchSpec", "LibrarySpec"):
        s["$defs"][name]["properties"]["$schema"] = {
            "type": "string", "description": "The JSON Schema this file follows (for editors)."}
    return s


def schema_text() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"
