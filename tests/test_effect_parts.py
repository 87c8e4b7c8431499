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

import json
from functools import cache
from pathlib import Path

import pytest
from conftest import past_setup

from rootlaw.generator import build as gbuild
from rootlaw.generator.render import render_core
from rootlaw.generator.tables import EFFECT_OPS, build_tables, effect_ops
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
    # (a give's 'otherwise' parts are parts of their own, laid out after it)
    parts = [part for do in progs for part in effect_ops(do)
             if isinstance(part, M.EFFECT_PARTS)]
    n = len(parts)
    assert {part.op for part in parts} >= {"score", "draw", "remove", "give", "show"}
    assert n >= 10
    assert n == len(t.effect_parts)
    for op in ("score", "draw", "remove_enemy_pieces", "remove_own_warrior",
               "discard_zone_matching", "take_random_card", "look_at_hand",
               "give_card_to_zone"):
        assert op not in EFFECT_OPS
    table, offs = t.table, t.table_layout.offsets
    ops = [table[offs["EOP_OP"] + i] for i in range(t.consts["NEOPS"])]
    a = [table[offs["EOP_A"] + i] for i in range(t.consts["NEOPS"])]
    code = EFFECT_OPS.index("part")
    assert [a[i] for i, op in enumerate(ops) if op == code] == list(range(n))
    src = render_core(b, t)
    for k in range(n):
        assert f"def do_eff_{k}(self, actor: i64, target: i64, opponent: i64, holder: i64, " \
            "c: i64, ev: i64)" in src
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


# ------------------------------------------------------------- give and show


FEAR = DATA / "packs" / "fear-of-the-faithful"


@cache
def fear_bundle():
    """The base game with Fear of the Faithful (Law 10.2.5) lent to the Eyrie, its core
    compiled before a game loads one."""
    bundle = resolve([FEAR])
    gbuild.compile_core(bundle)
    return bundle


def test_card_moves_between_players_are_give_and_show_parts():
    """Stand and Deliver ('take a random card from a player', Law 1.4.1), Codebreakers
    ('look at another player's hand') and Outrage (Law 8.2.6: 'must give the Alliance a
    matching card ... if they have no matching cards, they must show the Alliance their
    hand, and the Alliance draws a card into its Supporters') are the parts give and
    show (and draw), compiled for their use; the rules hash reads them as the ops they
    replaced (take_random_card, look_at_hand, give_card_to_zone)."""
    b = resolve()
    assert b.hash == "ef5ee339ef4f9a3a"
    deck = {c.id: c for c in b.deck.cards}
    assert deck["stand-and-deliver"].abilities[0].do[0] == M.GivePart(
        op="give", who="target", to="self", pick="random")
    assert deck["codebreakers"].abilities[0].do == [M.ShowPart(op="show", who="target",
                                                               to="self")]
    alliance = b.faction("alliance")
    outrage = [a for a in alliance.abilities if a.id.startswith("outrage")]
    assert len(outrage) == 2
    for a in outrage:
        assert a.do == [M.GivePart(op="give", to="holder", into="supporters",
                                   matching="clearing", otherwise=[
                                       M.ShowPart(op="show", to="holder"),
                                       M.DrawPart(op="draw", who="holder", into="supporters")])]
    dump = b.canonical()
    cards = {c["id"]: c for c in dump["deck"]["cards"]}
    assert cards["stand-and-deliver"]["abilities"][0]["do"][0] == {"op": "take_random_card"}
    assert cards["codebreakers"]["abilities"][0]["do"] == [{"op": "look_at_hand"}]
    ab = {a["id"]: a for f in dump["factions"] if f["id"] == "alliance" for a in f["abilities"]}
    assert ab["outrage-removed"]["do"] == [{"op": "give_card_to_zone", "zone": "supporters"}]
    t = build_tables(b)
    give = next(x for x in t.effect_parts if "trigger outrage-removed: its give" in x.code)
    # Asked whenever the giver's hand is not empty (Law 1.2), the two 'otherwise' parts
    # skipped once a card is given.
    assert "if self.hand_size(p) > 0:" in give.code and "self.give_ask(p, q, 0, 0, c, 2)" \
        in give.code
    take = next(x for x in t.effect_parts if "effect stand-and-deliver: its give" in x.code)
    assert "self.rand(n)" in take.code and "p: i64 = target" in take.code


def fear_game(order, core_kind, hand):
    """Marquise's daylight in ``order``, a battle in clearing 5 against one Eyrie warrior
    (the dice: 1 hit for the attacker, none for the defender), the Eyrie holding
    ``hand``."""
    g = started(order, core_kind, fear_bundle())
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 2)
    sc.set_hand(g, seat(g, "eyrie"), hand)
    sc.goto(g, "marquise", "daylight", "actions")
    return g


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_fear_of_the_faithful_discards_a_random_card(core_kind, order):
    """Law 10.2.5 (Fear of the Faithful: 'discard a random card'), lent to the Eyrie by
    the pack: a warrior of the Eyrie's removed by an enemy in battle (Law 4.3.5), the
    Eyrie discards a random card of its own hand: the give part, 'to': discard, 'pick':
    random, asking nobody."""
    g = fear_game(order, core_kind, ["anvil", "sword"])
    e = seat(g, "eyrie")
    sc.set_dice(g, 1, 0)
    g.apply("battle 5 eyrie")
    while g.decision in ("ambush", "battle_effects") and "done" in g.legal():
        g.apply("done")
    assert sc.count(g, "5", "bird-warrior") == 1
    hand = g.hand(e)
    assert len(hand) == 1 and hand[0] in ("anvil", "sword")
    gone = {"anvil", "sword"} - set(hand)
    assert gone <= set(g.cards_at(pos.piles(g)["discard"]))


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_fear_of_the_faithful_asks_nothing_whatever_the_hand_holds(core_kind, order):
    """Law 1.2 (hidden information): twins whose Eyrie hands differ only in which cards
    they hold are asked the same things (who decides, and the Marquise's options),
    decision for decision, through the battle and its random discard (Law 10.2.5), back
    to the Marquise's actions; an empty hand discards nothing."""
    def asked(hand):
        g = fear_game(order, core_kind, hand)
        sc.set_dice(g, 1, 0)
        g.apply("battle 5 eyrie")
        m, out = seat(g, "marquise"), []
        for _ in range(5):  # the battle's windows, then the Marquise's actions again
            out.append((g.decision, g.to_play,
                        sorted(g.legal()) if g.to_play == m else None))
            if g.to_play == m and g.decision == "actions" or "done" not in g.legal():
                break
            g.apply("done")
        return out, len(g.hand(seat(g, "eyrie")))
    a, na = asked(["anvil", "sword"])
    b, nb = asked(["armorers", "birdy-bindle"])
    assert a == b and na == nb == 1
    _, n0 = asked([])
    assert n0 == 0


def test_give_and_show_misused_are_coded_located_findings(tmp_path):
    """A give or show between one player and themselves is refused at the part; in a
    library program (a program's parts are its actor's) they are PROGRAM-SHAPE."""
    with pytest.raises(Exception, match="a card is given to another player"):
        M.GivePart(op="give", who="target", to="target")
    doc = {"kind": "library", "id": "bad", "programs": {"snatch": {"do": [
        {"op": "give", "who": "self", "to": "discard", "pick": "random"},
        {"op": "show", "to": "target"}]}}}
    path = tmp_path / "library.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    got = [(d.code, d.pointer) for d in validate([path]).diagnostics
           if d.code == "PROGRAM-SHAPE"]
    assert got == [("PROGRAM-SHAPE", "/programs/snatch/do/0"),
                   ("PROGRAM-SHAPE", "/programs/snatch/do/1")]
