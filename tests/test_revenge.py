"""A trigger on pieces removed in battle, on one side of it, and the value of its event's
pieces (Law 10.2.3, the Lizard Cult's Revenge: "whenever a Cult warrior is removed while
defending in battle, it is placed in the Acolytes box instead of the Cult's supply").

The faction is tests/data/packs/rituals (Test Skinks): its trigger `revenge` is on its
warriors removed, `"in_battle": "defending"`, and puts `{"event": "pieces"}` of them
into its box `acolytes` (`into_box` with a count). The battles are reached through the
engine's own turn flow: the attacker's Daylight, its battle action, the dice set.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import cores_agree
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "rituals"
SEATINGS = [("marquise", "test-skinks"), ("test-skinks", "eyrie", "marquise")]


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _battle(bundle, order, attacker: str, pure: bool, high: int, low: int):
    """A battle in clearing 8 (three cat warriors, two skinks), the attacker's Daylight
    reached through the turn flow, the roll set; run until the attacker's next action.
    The game, and the skinks' supply before the battle."""
    g = past_setup(order, bundle=bundle, pure=pure, empty_hands=True)
    pos.goto(g, attacker, "daylight", "actions")
    pos.clear_board(g)
    pos.put(g, "8", "cat-warrior", 3)
    pos.put(g, "8", "skink", 2)
    before = pos.supply(g, "skink")
    defender = "test-skinks" if attacker == "marquise" else "marquise"
    pos.set_dice(g, high, low)
    g.apply(f"battle 8 {defender}")
    while g.decision != "actions":  # no ambush in an empty hand: nothing else is asked
        g.apply(g.legal()[-1])
    assert g.to_play == order.index(attacker)
    return g, before


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_warriors_removed_while_defending_go_to_the_box(bundle, order, pure):
    """Law 10.2.3: the Marquise attacks and rolls two hits; both skinks defending are
    removed and go to the Acolytes box, not the supply."""
    me = order.index("test-skinks")
    g, before = _battle(bundle, order, "marquise", pure, 2, 0)
    assert g.compiled is not pure
    assert pos.count(g, "8", "skink") == 0
    assert g.box(me, "acolytes") == 2
    assert pos.supply(g, "skink") == before  # none back in the supply


@pytest.mark.parametrize("order", SEATINGS)
def test_only_the_defenders_removed_warriors(bundle, order):
    """Law 10.2.3 is about defending: one hit of two dealt removes one skink (one to the
    box); as attackers, the skinks' warriors the Marquise removes go to the supply."""
    me = order.index("test-skinks")
    g, _ = _battle(bundle, order, "marquise", True, 1, 0)
    assert pos.count(g, "8", "skink") == 1 and g.box(me, "acolytes") == 1
    g, before = _battle(bundle, order, "test-skinks", True, 2, 2)
    assert pos.count(g, "8", "skink") == 0
    assert g.box(me, "acolytes") == 0
    assert pos.supply(g, "skink") == before + 2


@pytest.mark.parametrize("order", SEATINGS)
def test_both_cores_agree_with_revenge(bundle, order):
    for seed in (4, 5):
        assert cores_agree(bundle, list(order), seed, 3000) is None


def test_the_event_s_pieces_outside_a_trigger_is_a_located_error(tmp_path):
    """{"event": "pieces"} is what a trigger's event removed: in a library program (a
    menu entry's) it names nothing, a coded error located at the value."""
    pack = tmp_path / "rituals"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["pray"]["do"][1]["count"] = {"event": "pieces"}
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    found = [(d.code, d.pointer) for d in validate([pack]).diagnostics
             if d.severity == "error"]
    assert ("PROGRAM-SHAPE", "/programs/pray/do/1/count") in found


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_a_sacrifice_needs_a_bird_card(bundle, order, pure):
    """Law 10.5.4: the Sacrifice ritual puts a warrior in the Acolytes box, and to
    perform it a bird card must be revealed: a card choice of one printed suit offers
    the bird cards only (no other card is a bird here)."""
    g = past_setup(order, bundle=bundle, pure=pure, empty_hands=True)
    me = order.index("test-skinks")
    pos.set_hand(g, me, ["anvil", "bird-crossbow", "armorers", "bake-sale"])
    pos.goto(g, "test-skinks", "daylight", "actions")
    assert sorted(a for a in g.legal() if a.startswith("sacrifice ")) == \
        ["sacrifice armorers", "sacrifice bird-crossbow"]
    supply = pos.supply(g, "skink")
    g.apply("sacrifice armorers")
    assert g.box(me, "acolytes") == 1 and pos.supply(g, "skink") == supply - 1
    assert "armorers" not in g.hand(me)
    pos.set_hand(g, me, ["anvil", "bake-sale"])
    assert not [a for a in g.legal() if a.startswith("sacrifice ")]
