"""Records (saves and logs) name the rules they were made with by the bundle's hash, and a
record whose hash differs is refused as "changed".  A field added to the language must
stay out of the hash at its default (models.ADDED_LATER; ADDED_TO_LIBRARIES for a part
that packs' own libraries hold), or every record made with an example pack would be
refused.  Each example pack's hash is pinned here; a change to one is a change to its
rules, made on purpose, with this table."""

from __future__ import annotations

from pathlib import Path

import pytest

from rootlaw.spec import resolve

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PINNED = {
    "corvid-conspiracy": "8af6555677b714bd",
    "four-actions": "30583ef181b268d4",
    "hedge-druids": "82ce789d63ffc14d",
    "homebrew-map": "077ccbd696e56d76",
    "keepers-in-iron": "141cb146f4556047",
    "lizard-cult": "2a82ca0f9fa51dac",
    "exiles-partisans": "f4b947d17130e2e7",
    "mire-toads": "982f35fbc9817fdc",
}


def test_every_example_pack_is_pinned():
    assert sorted(p.parent.name for p in EXAMPLES.glob("*/pack.json")) == sorted(PINNED)


@pytest.mark.parametrize("pack", sorted(PINNED))
def test_an_example_packs_rules_hash_as_before(pack):
    assert resolve([EXAMPLES / pack]).hash == PINNED[pack]


def test_the_base_game_hashes_as_before():
    assert resolve().hash == "ef5ee339ef4f9a3a"
