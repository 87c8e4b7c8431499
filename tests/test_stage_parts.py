"""A cycle's stage read as a suit, and a condition that a cycle is at a stage (the plan's
item 4, docs/language.md): the Lizard Cult's conspiracies, offered "in clearings
matching the Outcast" (Law 10.4.3: the filter ``{"suit_of": "$outcast"}``, the
stages of the outcast cycle being suits), and "if the Outcast is Hated, the conspiracy
costs one fewer" (a value's ``if`` on ``{"at_stage": "hated", "cycle": "$mood"}``).  A
cycle is public (Law 1.2): what is offered depends on no hidden card.

The faction is tests/data/packs/stages (Test Geckos): a conspiracy placing a warrior in
a clearing of the outcast's suit that has one (two while the mood is 'hated'); the
outcast and the mood move on each Evening (advance_cycle).  Reached through the engine's
own setup and turn flow, both seat orders and three seats, both cores.
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
from rootlaw.runtime.game import Game
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent / "data" / "packs" / "stages"
SEATINGS = [("marquise", "test-geckos"), ("test-geckos", "marquise"),
            ("eyrie", "test-geckos", "marquise")]
ME = "test-geckos"


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _suits(bundle) -> dict[str, str]:
    return {str(c.id): c.suit for c in bundle.map.clearings}


def _at_daylight(bundle, order, pure, outcast="rabbit", mood="outcast"):
    """The geckos at their Daylight's actions, reached through the turn flow, a gecko
    in every clearing, the cycles' markers where given."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    me = pos.seat_of(g, ME)
    for c in g.names["clearings"]:
        pos.put(g, c, "gecko", 1)
    pos.set_cycle(g, me, "outcast", outcast)
    pos.set_cycle(g, me, "mood", mood)
    pos.goto(g, ME, "daylight", "actions")
    assert g.to_play == me and g.phase == "daylight" and g.compiled is not pure
    return g, me


def _conspiracies(g) -> list[str]:
    return sorted((a for a in g.legal() if a.startswith("conspire ")),
                  key=lambda a: int(a.split()[1]))


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("outcast", ["fox", "rabbit", "mouse"])
def test_a_conspiracy_is_offered_in_the_clearings_matching_the_outcast(bundle, order, pure,
                                                                       outcast):
    """Law 10.4.3: conspiracies in clearings matching the Outcast: the clearings of the
    suit the outcast marker is on (and holding a gecko), none of another suit."""
    g, _ = _at_daylight(bundle, order, pure, outcast=outcast)
    want = sorted((f"conspire {c}" for c, s in _suits(bundle).items() if s == outcast),
                  key=lambda a: int(a.split()[1]))
    assert want and _conspiracies(g) == want
    # A clearing of that suit without a gecko is not offered.
    first = want[0].split()[1]
    pos.put(g, first, "gecko", 0)
    assert f"conspire {first}" not in _conspiracies(g)


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_the_outcast_moved_on_in_evening_changes_the_clearings_offered(bundle, order, pure):
    """Law 10.4.3 with the marker moved by the turn flow: the geckos' Evening moves the
    outcast on (advance_cycle, rabbit -> mouse); at their next Daylight the conspiracies
    are offered in the mouse clearings."""
    g, me = _at_daylight(bundle, order, pure, outcast="rabbit")
    g.apply("done")  # Daylight over: Evening moves the markers on
    while not (g.to_play == me and g.phase == "daylight"):
        g.apply(g.legal_actions()[0])
    assert pos.cycles(g, me)["outcast"] == "mouse"
    for c in g.names["clearings"]:
        pos.put(g, c, "gecko", 1)
    assert _conspiracies(g) == sorted(
        (f"conspire {c}" for c, s in _suits(bundle).items() if s == "mouse"),
        key=lambda a: int(a.split()[1]))


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
def test_while_the_mood_is_hated_the_conspiracy_places_one_more(bundle, order, pure):
    """Law 10.4.3, 'if the Outcast is Hated, the conspiracy costs one fewer': a value's
    'if' on a second cycle at a stage ('at_stage'): one warrior placed at stage
    'outcast', two at 'hated'."""
    for mood, placed in (("outcast", 1), ("hated", 2)):
        g, _ = _at_daylight(bundle, order, pure, outcast="fox", mood=mood)
        c = _conspiracies(g)[0].split()[1]
        before, supply = pos.count(g, c, "gecko"), pos.supply(g, "gecko")
        g.apply(f"conspire {c}")
        assert pos.count(g, c, "gecko") == before + placed
        assert pos.supply(g, "gecko") == supply - placed


@pytest.mark.parametrize("order", SEATINGS[:2])
def test_what_is_offered_depends_on_no_hidden_card(bundle, order):
    """Law 1.2: a cycle is public; twins differing only in the geckos' hand and the
    other hands are offered the same conspiracies."""
    g, me = _at_daylight(bundle, order, True, outcast="mouse", mood="hated")
    twin = g.clone()
    for q in range(g.num_players):
        pos.set_hand(twin, q, ["anvil", "sword"] if q == me else ["bake-sale"])
    assert g.legal() == twin.legal()


@pytest.mark.parametrize("order", SEATINGS)
def test_both_cores_agree_on_the_stages(bundle, order):
    for seed in (1, 2, 3):
        assert cores_agree(bundle, list(order), seed, 3000) is None


# ------------------------------------------- Law 10.3.3: the outcast marker placed at setup


def _to_setup_choice(bundle, order, pure):
    g = Game(list(order), 1, bundle=bundle, pure=pure)
    while g.decision != "place_outcast":
        assert g.phase == "setup"
        g.apply(g.legal_actions()[0])
    assert g.to_play == pos.seat_of(g, ME) and g.compiled is not pure
    return g


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("stage", ["fox", "rabbit", "mouse"])
def test_the_outcast_marker_is_placed_on_a_suit_space_of_choice_at_setup(bundle, order, pure,
                                                                        stage):
    """Law 10.3.3: "Place the outcast marker on any suit space": the geckos' setup step
    (a program whose first part chooses the cycle's stage, then set_stage 'chosen') is
    a decision of the step, each stage offered as 'outcast <stage>' in the cycle's
    order, whatever the marker's start; the marker is put there, and the game goes on
    with the setup (the second cycle untouched)."""
    g = _to_setup_choice(bundle, order, pure)
    me = pos.seat_of(g, ME)
    assert pos.cycles(g, me) == {"outcast": "rabbit", "mood": "outcast"}  # its start
    assert list(g.legal()) == ["outcast fox", "outcast rabbit", "outcast mouse"]
    g.apply(f"outcast {stage}")
    assert pos.cycles(g, me) == {"outcast": stage, "mood": "outcast"}
    assert g.decision != "place_outcast"
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    # The first Daylight's conspiracies follow the suit chosen.
    pos.clear_board(g)  # (the Keep forbids placing, Law 6.2.2)
    pos.goto(g, ME, "daylight", "actions")
    for c in g.names["clearings"]:
        pos.put(g, c, "gecko", 1)
    assert _conspiracies(g) == sorted(
        (f"conspire {c}" for c, s in _suits(bundle).items() if s == stage),
        key=lambda a: int(a.split()[1]))


@pytest.mark.parametrize("order", SEATINGS[:2])
def test_the_stage_choice_depends_on_no_hidden_card(bundle, order):
    """Law 1.2: the choice is offered alike to twins differing only in hidden cards."""
    g = _to_setup_choice(bundle, order, True)
    twin = g.clone()
    for q in range(g.num_players):
        pos.set_hand(twin, q, ["anvil"] if q == pos.seat_of(g, ME) else ["sword", "bake-sale"])
    assert g.legal() == twin.legal()


def test_a_bundle_without_a_stage_verb_keeps_the_engines_action_space(bundle):
    """The stage verb is the content's own: an action type after the engine's, so the
    base game's action space and notations stay as they were."""
    from rootlaw.runtime.game import base_bundle
    base = Game(["marquise", "eyrie"], 1, bundle=base_bundle(), pure=True)
    mine = Game(["marquise", "test-geckos"], 1, bundle=bundle, pure=True)
    assert "outcast" not in base.names["verbs"] and not base.names["verb_stages"]
    assert mine.names["verb_stages"] == {"outcast": ["fox", "rabbit", "mouse"]}


def _errors(pack):
    return [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics
            if d.severity == "error"]


def _edit(tmp_path, fn):
    pack = tmp_path / "stages"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    fac = json.loads((pack / "geckos.json").read_text(encoding="utf-8"))
    fn(lib["programs"]["conspire"], fac)
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    (pack / "geckos.json").write_text(json.dumps(fac), encoding="utf-8")
    return pack


MENU = "/turn/daylight/0/menu/0"
SETUP = "/setup/1"


def test_the_pack_is_clean():
    assert list(validate([PACK]).diagnostics) == []


def test_a_suit_read_of_a_cycle_whose_stages_are_not_suits_is_a_located_error(tmp_path):
    """CYCLE-STAGE at the use (the menu entry), naming the program's part: the entry
    binds the outcast to the mood, whose stages are no suits."""
    def swap(prog, fac):
        fac["turn"]["daylight"][0]["menu"][0]["outcast"] = "mood"
    [(code, ptr, msg)] = _errors(_edit(tmp_path, swap))
    assert (code, ptr) == ("CYCLE-STAGE", MENU)
    assert "/programs/conspire/do/0/clearing/suit_of" in msg
    assert "'outcast', 'hated' are no suits" in msg


def test_a_stage_its_cycle_has_not_and_a_cycle_of_none_are_located_errors(tmp_path):
    """CYCLE-STAGE: 'at_stage' naming no stage of the cycle (with the closest's name),
    and a cycle that is none of the faction's."""
    def misspell(prog, fac):
        prog["do"][1]["count"]["if"]["at_stage"] = "hatred"
    [(code, ptr, msg)] = _errors(_edit(tmp_path, misspell))
    assert (code, ptr) == ("CYCLE-STAGE", MENU)
    assert "/programs/conspire/do/1/count/if/cycle" in msg and "'hated'" in msg

    def no_cycle(prog, fac):
        prog["do"][0]["clearing"]["suit_of"] = "outcasts"
    found = _errors(_edit(tmp_path / "b", no_cycle))
    assert [(c, p) for c, p, _ in found] == [("CYCLE-STAGE", MENU)]
    assert "'outcasts'" in found[0][2] and "outcast" in found[0][2]


def test_a_cycle_only_a_program_reads_is_not_stuck():
    """CYCLE-STUCK reads a cycle bound to a program (the mood, read by 'at_stage') as
    read."""
    assert not [d for d in validate([PACK]).diagnostics if d.code == "CYCLE-STUCK"]


def test_a_stage_set_that_cannot_be_is_a_located_error(tmp_path):
    """CYCLE-STAGE at the setup step: set_stage 'chosen' of a cycle whose stage is not
    the one chosen, and set_stage on a stage its cycle has not."""
    lib_edit = {"place_outcast": {"law": "10.3.3", "verb": "outcast",
                                  "params": {"cycle": "cycle"},
                                  "do": [{"op": "choose", "stage": "$cycle"},
                                         {"op": "set_stage", "cycle": "mood"}]}}
    pack = _edit(tmp_path, lambda p, f: None)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"].update(lib_edit)
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    [(code, ptr, msg)] = _errors(pack)
    assert (code, ptr) == ("CYCLE-STAGE", SETUP)
    assert "/programs/place_outcast/do/1/cycle" in msg and "no stage of mood" in msg
    lib["programs"]["place_outcast"]["do"][1] = {"op": "set_stage", "cycle": "$cycle",
                                                 "stage": "badger"}
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    [(code, ptr, msg)] = _errors(pack)
    assert (code, ptr) == ("CYCLE-STAGE", SETUP)
    assert "stage 'badger' of cycle outcast" in msg


def test_a_stage_chosen_with_a_clearing_is_a_located_error(tmp_path):
    """PROGRAM-SHAPE: a stage is chosen alone."""
    pack = _edit(tmp_path, lambda p, f: None)
    lib = json.loads((pack / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["place_outcast"]["do"][0]["clearing"] = {}
    (pack / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    found = [(d.code, d.pointer) for d in validate([pack]).diagnostics
             if d.severity == "error"]
    assert ("PROGRAM-SHAPE", "/programs/place_outcast/do/0") in found


# ------------------------------------------------ a stage other than the current one

@pytest.fixture(scope="module")
def remood_bundle(tmp_path_factory):
    """The geckos with one more menu entry: 'remood', choosing a stage of the outcast
    cycle other than the one its marker is on ('except_current'), and putting it there
    (Law 14.4.4, Choose Mood: "a different mood card")."""
    folder = tmp_path_factory.mktemp("remood")
    for name in ("pack.json", "geckos.json", "library.json"):
        shutil.copy(PACK / name, folder / name)
    lib = json.loads((folder / "library.json").read_text(encoding="utf-8"))
    lib["programs"]["remood"] = {
        "verb": "remood", "params": {"cycle": "cycle"},
        "do": [{"op": "choose", "stage": "$cycle", "except_current": True},
               {"op": "set_stage", "cycle": "$cycle"}]}
    (folder / "library.json").write_text(json.dumps(lib), encoding="utf-8")
    geckos = json.loads((folder / "geckos.json").read_text(encoding="utf-8"))
    geckos["turn"]["daylight"][0]["menu"].append({"action": "remood", "cycle": "outcast"})
    (folder / "geckos.json").write_text(json.dumps(geckos), encoding="utf-8")
    b = resolve([folder])
    gbuild.compile_core(b)
    return b


@pytest.mark.parametrize("order", SEATINGS)
@pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
@pytest.mark.parametrize("current", ["fox", "rabbit", "mouse"])
def test_a_stage_choice_may_leave_out_the_current_stage(remood_bundle, order, pure, current):
    g, me = _at_daylight(remood_bundle, order, pure, outcast=current)
    offered = [a for a in g.legal() if a.startswith("remood ")]
    assert offered == [f"remood {s}" for s in ("fox", "rabbit", "mouse") if s != current]
    g.apply(offered[-1])
    assert pos.cycles(g, me)["outcast"] == offered[-1].split()[1]


def test_except_current_is_for_a_stage_choice():
    from conftest import assert_located

    doc = {"kind": "library", "id": "x", "programs": {"p": {
        "do": [{"op": "choose", "clearing": {}, "except_current": True}]}}}
    assert_located(doc, "VALUE-INVALID", "/programs/p/do/0/except_current", "'stage'")
