"""The parts of effect programs (issue 12: one language): an effect's, a trigger's or an
immediate card's `do` holds the program parts `score`, `lose_vp` and `draw`, each
compiled for its use (``do_eff_<k>``), carried out for the player its `who` names:
'self', the effect's 'target' (Law 1.4.1: 'another player of your choice'), or the
battle's 'opponent' (Law 4.3.4).  Values are read as that player's (Royal Claim's 'per
clearing you rule' is ``{"clearings": {"rule": "self"}}``); a negative score is refused
(Law 3.2: VP are lost by 'lose_vp').

The base deck's cards are reached through the engine's own turn flow, in more than one
seat order; the cards of tests/data/packs/effect-parts (a pack) use values and 'who' the
base deck does not.  Every game test runs on the compiled and on the pure core.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.generator.render import render_core
from rootlaw.generator.tables import EFFECT_OPS, build_tables
from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import models as M
from rootlaw.spec import resolve
from rootlaw.spec.bundle import Bundle, _with_effect_op_dumps
from rootlaw.spec.loader import load_file
from rootlaw.spec.validate import validate

DATA = Path(__file__).resolve().parent / "data"
PACK = DATA / "packs" / "effect-parts"
ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise")]


@cache
def pack_bundle():
    """The base game with the effect-parts pack, its core compiled before a game loads
    one (auto-build is off in tests)."""
    bundle = resolve([PACK])
    gbuild.compile_core(bundle)
    return bundle


def started(order, core_kind, bundle=None):
    """A game in ``order`` past setup (the engine's own setup flow), board and hands
    cleared, every score 0."""
    g = past_setup(order, bundle=bundle, pure=(core_kind == "pure"), clear=True,
                   empty_hands=True)
    for q in range(g.num_players):
        sc.set_vp(g, q, 0)
    return g


def seat(g, faction: str) -> int:
    return g.factions.index(faction)


# ------------------------------------------------------------- compiled for each use


def test_each_effect_part_is_compiled_for_its_use():
    """Law 4.1.3 (a persistent card's effect) as a program: every score and draw of the
    base deck's effect programs is a part with its own compiled method, dispatched by
    the one op code 'part'; the interpreter reads no value of it."""
    b = base_bundle()
    t = build_tables(b)
    progs = [a.do for f in b.factions for a in f.abilities
             if isinstance(a, (M.Effect, M.Trigger))] + \
        [a.do for c in b.deck.cards for a in c.abilities if isinstance(a, M.Effect)] + \
        [c.on_craft for c in b.deck.cards]
    parts = [part for do in progs for part in do if isinstance(part, M.EFFECT_PARTS)]
    n = len(parts)
    assert {part.op for part in parts} >= {"score", "draw", "remove"} and n >= 10
    assert n == len(t.effect_parts)
    for op in ("score", "draw", "remove_enemy_pieces", "remove_own_warrior",
               "discard_zone_matching"):
        assert op not in EFFECT_OPS
    table, offs = t.table, t.table_layout.offsets
    ops = [table[offs["EOP_OP"] + i] for i in range(t.consts["NEOPS"])]
    a = [table[offs["EOP_A"] + i] for i in range(t.consts["NEOPS"])]
    code = EFFECT_OPS.index("part")
    assert [a[i] for i, op in enumerate(ops) if op == code] == list(range(n))
    src = render_core(b, t)
    for k in range(n):
        assert f"def do_eff_{k}(self, actor: i64, target: i64, opponent: i64, c: i64)" in src
    # Royal Claim's count of ruled clearings is a compiled helper of its part.
    royal = next(x for x in t.effect_parts if "royal-claim" in x.code)
    assert "self.ruler(j) == p" in royal.code and "count_eff_" in royal.code
    assert "EOP_SCORE" not in src and "EOP_DRAW" not in src


def test_the_deck_hashes_as_its_ops_did():
    """The rules hash reads the deck's effect parts as the ops they replaced (saves and
    logs name it): 'per': ruled_clearing for Royal Claim's value, every op field."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    deck = {c["id"]: c for c in b.canonical()["deck"]["cards"]}
    assert deck["royal-claim"]["abilities"][0]["do"] == [
        {"op": "score", "vp": 1, "per": "ruled_clearing", "who": "self"}]
    assert deck["brutal-tactics"]["abilities"][0]["do"][1] == \
        {"op": "score", "vp": 1, "per": None, "who": "opponent"}
    assert deck["better-burrow-bank"]["abilities"][0]["do"] == [
        {"op": "draw", "count": 1, "who": "self"}, {"op": "draw", "count": 1, "who": "target"}]
    # A loss of VP hashes as the negative score it was written as before (test-green's
    # toll, tests/data/families).
    green = load_file(DATA / "families" / "test-green.json")
    assert Bundle(b.map, b.deck, (b.faction("marquise"), green)).hash == "f535859c39bd75be"
    toll = next(a for a in green.abilities if a.id == "flag-toll")
    assert _with_effect_op_dumps(green, green.model_dump(mode="json"))["abilities"][
        green.abilities.index(toll)]["do"] == [
            {"op": "score", "vp": -1, "per": None, "who": "self"}]


# ------------------------------------------------------------- who: the base deck


def birdsong_with(g, faction: str, card: str) -> None:
    """``card`` in the faction's play area, its turn begun through the turn flow."""
    sc.move_card(g, card, g.consts["LOC_PLAY"] + seat(g, faction))
    pos.begin_turn(g, faction)


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
@pytest.mark.parametrize("holder", ["marquise", "eyrie"])
def test_stand_and_deliver_its_target_scores(core_kind, order, holder):
    """Stand and Deliver! ('take a random card from another player; that player scores
    one point', Law 1.4.1): the part's 'who': target scores for the chosen player, not
    the user, whichever seat either sits in."""
    g = started(order, core_kind)
    other = "eyrie" if holder == "marquise" else "marquise"
    if holder == "eyrie":
        sc.put(g, "1", "roost", 1)
    sc.set_hand(g, seat(g, other), ["anvil"])
    birdsong_with(g, holder, "stand-and-deliver")
    use = f"use stand-and-deliver on {other}"
    assert use in g.legal()
    g.apply(use)
    assert g.scores[seat(g, other)] == 1 and g.scores[seat(g, holder)] == 0
    assert "anvil" in g.hand(seat(g, holder))


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_brutal_tactics_its_opponent_scores(core_kind, order):
    """Brutal Tactics ('as attacker, deal an extra hit; the defender scores one point',
    Law 4.3.4, 4.3.5.I): the part's 'who': opponent is the other side of the battle."""
    g = started(order, core_kind)
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    sc.move_card(g, "brutal-tactics", g.consts["LOC_PLAY"] + m)
    sc.put(g, "12", "cat-warrior", 1)
    sc.put(g, "12", "bird-warrior", 3)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 0)
    g.apply("battle 12 eyrie")
    assert g.decision == "battle_effects" and g.to_play == m
    g.apply("use brutal-tactics")
    assert g.scores[e] == 1 and g.scores[m] == 0
    assert sc.count(g, "12", "bird-warrior") == 1


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_royal_claim_scores_the_value_for_its_user(core_kind, order):
    """Royal Claim ('score one point per clearing you rule', Law 1.4.1, 2.5): the value
    {"clearings": {"rule": "self"}} counts the user's ruled clearings, not another's."""
    g = started(order, core_kind)
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    for c in ("2", "5", "9"):
        sc.put(g, c, "cat-warrior", 1)
    for c in ("1", "3"):
        sc.put(g, c, "bird-warrior", 1)
    birdsong_with(g, "marquise", "royal-claim")
    assert "use royal-claim" in g.legal()
    g.apply("use royal-claim")
    assert g.scores[m] == 3 and g.scores[e] == 0
    assert g.play_area(m) == []


# ------------------------------------------------------------- a pack's cards


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_a_pack_card_scores_a_value(core_kind, order):
    """Harvest Festival (tests/data/packs/effect-parts; Law 1.4.1): 'score 1 VP per card
    in your hand', the value {"cards": "hand"} read when it is used; discarding the card
    is the cost, paid before the program runs."""
    g = started(order, core_kind, pack_bundle())
    e = seat(g, "eyrie")
    sc.put(g, "1", "roost", 1)
    sc.set_hand(g, e, ["anvil", "sappers", "armorers"])
    birdsong_with(g, "eyrie", "harvest-festival")
    assert "use harvest-festival" in g.legal()
    g.apply("use harvest-festival")
    assert g.scores[e] == 3 and g.play_area(e) == []


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_a_target_part_reads_its_values_as_the_targets(core_kind, order):
    """Census (the pack; Law 1.4.1, 2.5): 'another player scores 1 VP per clearing they
    rule; you draw a card': the target's part counts the target's clearings, the next
    part is the user's again."""
    g = started(order, core_kind, pack_bundle())
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    for c in ("2", "5"):
        sc.put(g, c, "cat-warrior", 1)
    for c in ("1", "3", "4", "6"):
        sc.put(g, c, "bird-warrior", 1)
    pos.set_deck_top(g, ["anvil"])
    birdsong_with(g, "marquise", "census")
    g.apply("use census on eyrie")
    assert g.scores[e] == 4 and g.scores[m] == 0
    assert "anvil" in g.hand(m) and g.hand(e) == []


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_lose_vp_and_draw_for_the_opponent(core_kind, order):
    """War Tax (the pack; Law 4.3.4): as defender after the roll, 'the attacker loses
    1 VP and draws a card': lose_vp and draw with 'who': opponent."""
    g = started(order, core_kind, pack_bundle())
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    sc.set_vp(g, m, 2)
    sc.move_card(g, "war-tax", g.consts["LOC_PLAY"] + e)
    sc.put(g, "12", "cat-warrior", 2)
    sc.put(g, "12", "bird-warrior", 2)
    pos.set_deck_top(g, ["anvil"])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 1, 1)
    g.apply("battle 12 eyrie")
    while g.decision == "battle_effects" and g.to_play == m:
        g.apply("done")
    assert g.decision == "battle_effects" and g.to_play == e
    g.apply("use war-tax")
    assert g.scores[m] == 1 and g.scores[e] == 0
    assert "anvil" in g.hand(m) and g.hand(e) == []


# ------------------------------------------------------------- refused content


def test_a_negative_score_is_refused_at_the_part():
    """Law 3.2 scores VP; losing them is 'lose_vp' (Law 7.7.1): a score of -1 in an
    effect program is a coded error located at the part's 'vp'."""
    fixture = DATA / "semantics" / "effect-score-negative.json"
    found = validate([fixture], []).diagnostics
    assert [(d.code, d.pointer) for d in found if d.severity == "error"] == \
        [("VALUE-INVALID", "/cards/3/abilities/0/do/1/vp")]
    assert "lose_vp" in found[0].message
    line = fixture.read_text().splitlines()[found[0].line - 1]
    assert '"vp": -1' in line


# ------------------------------------------------------------- remove


def test_the_removals_are_remove_parts_and_hash_as_their_ops_did():
    """The Favors (Law 4.1.2 card text: 'remove all enemy pieces in every clearing of the
    fox suit') and Tax Collector ('remove one of your warriors', Law 1.4.1) are 'remove'
    parts (every clearing of a suit: the filter {"suit": "fox"}; the effect's clearing:
    'at' left out), compiled for their use; the rules hash reads them as the ops."""
    b = resolve()
    favor = next(c for c in b.deck.cards if c.id == "favor-of-the-foxes")
    assert favor.on_craft == [M.RemovePart(op="remove", pieces="enemy",
                                           at=M.ClearingFilter(suit="fox"))]
    deck = {c["id"]: c for c in b.canonical()["deck"]["cards"]}
    assert deck["favor-of-the-foxes"]["on_craft"] == [
        {"op": "remove_enemy_pieces", "suit": "fox", "at": None}]
    assert deck["tax-collector"]["abilities"][0]["do"][0] == {"op": "remove_own_warrior"}
    t = build_tables(b)
    fox = next(x for x in t.effect_parts if "card favor-of-the-foxes" in x.code)
    assert "self.t[T_CLEARING_SUIT + j] == 0" in fox.code
    tax = next(x for x in t.effect_parts if "effect tax-collector: its remove" in x.code)
    assert "self.warrior(p)" in tax.code and "if c >= 0" in tax.code


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_remove_every_enemy_piece_in_the_chosen_clearing(core_kind, order):
    """Purge (the pack; Law 1.4.1, 3.2.1): 'remove every enemy piece from a clearing of
    your choice': the remove part acts in the effect's target clearing; its user scores
    1 VP per enemy building and token removed, its own pieces stay."""
    g = started(order, core_kind, pack_bundle())
    m, e = seat(g, "marquise"), seat(g, "eyrie")
    sc.put(g, "1", "roost", 1)
    sc.put(g, "5", "roost", 1)
    sc.put(g, "5", "bird-warrior", 2)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "sawmill", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.move_card(g, "purge", g.consts["LOC_PLAY"] + m)
    use = "use purge at 5"
    assert use in g.legal()
    g.apply(use)
    assert sc.count(g, "5", "roost") == 0 and sc.count(g, "5", "bird-warrior") == 0
    assert sc.count(g, "5", "cat-warrior") == 1 and sc.count(g, "5", "sawmill") == 1
    assert sc.count(g, "1", "roost") == 1
    assert g.scores[m] == 1 and g.scores[e] == 0 and g.play_area(m) == []


# ------------------------------------------------------------- discard_all matching


def test_removing_bases_discards_matching_supporters_as_a_part():
    """Law 8.2.4 (Removing Bases: 'discard all supporters matching the suit of the
    removed base, including birds'): the part discard_all 'from' the zone, 'matching'
    the program's clearing, compiled for its use; hashed as the op it replaced.  (Its
    play is tests/test_law_alliance.py's.)"""
    b = resolve()
    alliance = b.faction("alliance")
    trig = next(a for a in alliance.abilities if a.id == "removing-bases")
    assert trig.do[0] == M.DiscardAllPart(op="discard_all", **{"from": "supporters"},
                                          matching="clearing")
    dump = next(f for f in b.canonical()["factions"] if f["id"] == "alliance")
    ab = next(a for a in dump["abilities"] if a["id"] == "removing-bases")
    assert ab["do"][0] == {"op": "discard_zone_matching", "zone": "supporters"}
    t = build_tables(b)
    part = next(x for x in t.effect_parts if "trigger removing-bases: its discard_all" in x.code)
    assert "self.suit_matches(" in part.code and "if c >= 0:" in part.code
