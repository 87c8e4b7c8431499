"""The Exiles and Partisans deck (Law A.2), written as data (examples/exiles-partisans:
every card of it).  Each part its cards use is tested on its own (test_moving_ability,
test_effect_when, test_numbers_ability, test_item_crafted_trigger, test_rule_tokens);
here, the deck as a whole: it validates, every card is craftable, games with it play to
the end alike on both cores, and each card does what it says through the turn flow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rootlaw.runtime.cli import main
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent.parent / "examples" / "exiles-partisans"
NOT_YET: set[str] = set()  # every card is data


def test_the_deck_has_54_cards_of_its_suits():
    deck = json.loads((PACK / "deck.json").read_text(encoding="utf-8"))
    by_suit: dict[str, int] = {}
    for c in deck["cards"]:
        by_suit[c["suit"]] = by_suit.get(c["suit"], 0) + c.get("count", 1)
    assert by_suit == {"bird": 14, "fox": 14, "rabbit": 13, "mouse": 13}


def test_only_the_cards_not_yet_data_are_uncraftable():
    report = validate([PACK], [])
    assert not [d for d in report.diagnostics if d.severity == "error"]
    uncraftable = {d.message.split(":")[0].removeprefix("card ")
                   for d in report.diagnostics if d.code == "CARD-NO-EFFECT"}
    assert uncraftable == NOT_YET
    readme = (PACK / "README.md").read_text(encoding="utf-8")
    assert readme.count("| not yet:") == len(NOT_YET)


def test_games_with_the_deck_end_alike_on_both_cores(capsys):
    from rootlaw.generator import build as gbuild
    from rootlaw.spec import resolve

    gbuild.compile_core(resolve([PACK], deck_id="exiles-partisans"))  # (auto-build is off)
    assert main(["check", "--pack", str(PACK), "--deck", "exiles-partisans", "--games", "6",
                 "--agreement", "6"]) == 0
    assert "6 games compared decision by decision" in capsys.readouterr().out


def test_no_leak_with_the_deck(capsys):
    """Random games with the deck: whatever they craft, no leak (docs/design.md, Hidden
    information)."""
    assert main(["check", "--hidden", "--pack", str(PACK), "--deck", "exiles-partisans",
                 "--games", "6"]) == 0
    assert "no leak" in capsys.readouterr().out


SETS = [["propaganda-bureau", "tunnels", "corvid-planners", "murine-broker",
         "league-of-adventurous-mice"],
        ["saboteurs", "boat-builders", "master-engravers", "swap-meet", "eyrie-emigre"],
        ["soup-kitchens", "fox-partisans", "charm-offensive", "rabbit-partisans",
         "false-orders", "coffin-makers"]]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_leak_with_the_cards_in_play(seed):
    """Random games rarely craft these cards, so each seat starts with some of them in
    its play area (and a crafted item, for League of Adventurous Mice); from positions
    along the game, twins that differ only in what one seat cannot see (the cards, the
    future) play on with the same choices: any difference that seat sees before a card
    is shown is a leak (runtime/hidden.py).  A review found the Propaganda Bureau's leak
    this way."""
    import random

    from rootlaw.runtime import position as sc
    from rootlaw.runtime.game import Game
    from rootlaw.runtime.hidden import play_twins
    from rootlaw.spec import resolve

    bundle = resolve([PACK], deck_id="exiles-partisans")
    order = [("marquise", "eyrie", "alliance"), ("eyrie", "alliance", "marquise"),
             ("alliance", "marquise", "eyrie")][seed % 3]
    g = Game(list(order), seed, bundle=bundle, pure=True)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    for q in range(3):
        sc.set_play_area(g, q, SETS[(q + seed) % 3])
        sc.set_crafted(g, q, ["boot", "sword", "tea"][q], 1)  # League has items to use
    rng = random.Random(seed)
    leaks, pairs = [], 0
    for step in range(300):
        if g.is_over:
            break
        if step % 15 == 7:
            for seat in range(g.num_players):
                for cards, future in ((True, False), (False, True)):
                    b = g.determinize(seat, rng.getrandbits(63), cards=cards, future=future)
                    end, detail, _, _ = play_twins(g.clone(), b, seat, horizon=40,
                                                   rng=random.Random(rng.getrandbits(32)),
                                                   future=future)
                    pairs += 1
                    if end == "leak":
                        leaks.append((step, seat, detail))
        la = g.legal_actions()
        g.apply(la[rng.randrange(len(la))])
    assert pairs >= 60 and not leaks, leaks[:3]


# ------------------------------------------ the cards older parts say, in play

ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"), ("alliance", "eyrie", "marquise")]


def deck_game(order, core_kind):
    from conftest import past_setup

    from rootlaw.generator import build as gbuild
    from rootlaw.spec import resolve

    bundle = resolve([PACK], deck_id="exiles-partisans")
    gbuild.compile_core(bundle)
    g = past_setup(order, bundle=bundle, pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    return g


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("used", [True, False])
def test_charm_offensive_draws_and_another_scores(core_kind, order, used):
    """"At start of Evening, may draw a card and choose another player to score one
    point" (Law 1.4.1: before anything else in Evening)."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["charm-offensive"])
    sc.set_vp(g, e, 0)
    sc.goto(g, "marquise", "daylight")
    while g.phase == "daylight":  # her Daylight declined, through the turn flow
        g.apply("done")
    assert g.phase == "evening" and g.decision == "phase_start" and g.to_play == m
    assert "use charm-offensive on eyrie" in g.legal()
    g.apply("use charm-offensive on eyrie" if used else "done")
    # The card's draw, then her Evening's own (it goes on by itself: nothing to decide).
    assert len(g.hand(m)) == 1 + used and g.scores[e] == used


@pytest.mark.parametrize("order", ORDERS)
def test_swap_meet_takes_at_random_and_gives_back(core_kind, order):
    """"Once in Birdsong, may take a random card from another player and then give them
    a card": the Eyrie's one card comes to the Marquise, who gives one of hers."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["swap-meet"])
    sc.set_hand(g, e, ["anvil"])
    sc.set_hand(g, m, ["bake-sale"])
    sc.goto(g, "marquise", "birdsong")
    g.apply("use swap-meet on eyrie")
    assert sorted(g.hand(m)) == ["anvil", "bake-sale"] and g.hand(e) == []
    g.apply(next(n for n in g.legal() if "bake-sale" in n))
    assert g.hand(m) == ["anvil"] and g.hand(e) == ["bake-sale"]


@pytest.mark.parametrize("order", ORDERS)
def test_saboteurs_discard_an_enemys_crafted_card_of_the_users_choice(core_kind, order):
    """"At the start of Birdsong, may discard this card to discard an enemy's crafted
    card": the Marquise, at the start of her Birdsong (reached through the turn flow
    from the Eyrie's turn), discard Saboteurs and pick one of the Eyrie's two crafted
    cards; a player with none is no target."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["saboteurs"])
    sc.set_play_area(g, e, ["tunnels", "soup-kitchens"])
    sc.begin_turn(g, "marquise")
    assert g.to_play == m and g.decision == "phase_start"
    targets = {n for n in g.legal() if n.startswith("use saboteurs")}
    assert targets == {"use saboteurs on eyrie"}  # the Alliance (if seated) has none
    g.apply("use saboteurs on eyrie")
    assert g.to_play == m and g.decision == "zone_give"
    picks = sorted(g.legal())
    assert len(picks) == 2 and not any("saboteurs" in n for n in picks)
    g.apply(next(n for n in picks if "soup-kitchens" in n))
    assert sc.play_area(g, e) == ["tunnels"] and sc.play_area(g, m) == []
    assert "soup-kitchens" in g.cards_at(g.consts["LOC_DISCARD"])
    assert "saboteurs" in g.cards_at(g.consts["LOC_DISCARD"])


@pytest.mark.parametrize("give, where, words", [
    ({"op": "give", "who": "target", "from": "play_area", "to": "discard"}, "/pick",
     "picked by the actor"),
    ({"op": "give", "who": "target", "to": "discard", "pick": "actor"}, "/pick",
     "picked by the actor"),
    ({"op": "give", "who": "self", "from": "play_area", "to": "discard", "pick": "actor"},
     "/from", "another player's")])
def test_a_give_from_a_play_area_is_the_actors_pick_of_anothers_card(give, where, words):
    from conftest import assert_located, deck_with_armorers_doing

    doc, i = deck_with_armorers_doing([give])
    assert_located(doc, "VALUE-INVALID", f"/cards/{i}/abilities/0/do/0{where}", words)


@pytest.mark.parametrize("order", ORDERS)
def test_propaganda_bureau_between_actions(core_kind, order):
    """"Once in Daylight, may spend a card to remove an enemy warrior from a matching
    clearing and place a warrior there": used at the Marquise's actions (between two
    actions, Law 1.4.2), it takes one action of its own (the library's 'propaganda': a
    clearing, a card of the hand matching it spent, the Law's Replace, G.23); her three
    actions are still hers after it, and it is not offered again this turn."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["propaganda-bureau"])
    sc.set_hand(g, m, ["anvil", "bake-sale"])  # fox, rabbit
    sc.put(g, "1", "bird-warrior", 2)   # fox
    sc.put(g, "5", "bird-warrior", 1)   # rabbit
    sc.put(g, "2", "bird-warrior", 1)   # mouse: no card of hers matches
    sc.put(g, "12", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use propaganda-bureau" in g.legal()
    g.apply("use propaganda-bureau")
    offered = {n for n in g.legal() if n.startswith("propaganda")}
    assert offered == {"propaganda bird-warrior 1", "propaganda bird-warrior 5"}, offered
    g.apply("propaganda bird-warrior 1")
    assert g.decision == "zone_pay" and g.to_play == m  # two cards, one fox: she picks
    g.apply(next(n for n in g.legal() if "anvil" in n))
    assert sc.count(g, "1", "bird-warrior") == 1 and sc.count(g, "1", "cat-warrior") == 1
    assert g.hand(m) == ["bake-sale"] and "anvil" in g.cards_at(g.consts["LOC_DISCARD"])
    assert g.to_play == m and g.decision == "actions"
    assert "use propaganda-bureau" not in g.legal()  # once in Daylight
    sc.put(g, "12", "cat-warrior", 3)  # (put sets the count)
    for k, move in enumerate(["move 12->9 x1", "move 12->9 x1", "move 12->9 x1"]):
        assert g.decision == "actions", k  # her three actions, all still hers
        g.apply(move)
        if g.decision == "march":  # a march is two moves (Law 6.5.2): one taken
            g.apply("done")
    # No action left: 'done' alone (she is still asked: her hand might hold a bird for
    # an extra action, Law 6.5, which only she may know).
    assert g.decision == "actions" and set(g.legal()) == {"done"}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("case", ["battle", "no enemy there", "no warriors"])
def test_eyrie_emigre_moves_then_battles_or_is_lost(core_kind, order, case):
    """"At the end of Birdsong, take a move, then initiate a battle in the clearing you
    moved into. If you did not take both actions, discard this card": at the end of the
    Marquise's Birdsong (her turn begun through the turn flow), the card is used at once
    (mandatory, the only thing to do); its move has no 'done', nor has its battle where
    one can be initiated.  Moving into an empty clearing, or having no warrior to move,
    loses the card; moving and battling keeps it.  Then Daylight."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["eyrie-emigre"])
    if case != "no warriors":
        sc.put(g, "1", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 1)
    sc.set_dice(g, 2, 0)
    sc.begin_turn(g, "marquise")
    if case != "no warriors":
        assert (g.phase, g.decision, g.to_play) == ("birdsong", "take_actions", m)
        assert "done" not in g.legal() and "move 1->5 x1" in g.legal()
        g.apply("move 1->5 x1" if case == "battle" else "move 1->9 x1")
    if case == "battle":
        assert g.decision == "take_actions" and set(g.legal()) == {"battle 5 eyrie"}
        g.apply("battle 5 eyrie")
        while g.phase == "birdsong":  # the Eyrie's ambush window, if asked
            assert g.to_play == e
            g.apply("done")
        assert sc.count(g, "5", "bird-warrior") == 0
    assert g.phase == "daylight" and g.to_play == m
    kept = case == "battle"
    assert sc.play_area(g, m) == (["eyrie-emigre"] if kept else [])
    assert ("eyrie-emigre" in g.cards_at(g.consts["LOC_DISCARD"])) != kept


@pytest.mark.parametrize("order", ORDERS)
def test_false_orders_moves_half_an_enemys_warriors_ignoring_rule(core_kind, order):
    """"In Birdsong, may discard this card to force an enemy to move half their faction
    warriors (round up) from a clearing you choose to a clearing you choose, ignoring
    rule" (the errata): the Marquise, at the start of her Birdsong, target the Eyrie (a
    player with no warrior on the map is none); she chooses the move of theirs: out of
    clearing 5 two of three (half, rounded up), out of clearing 1 its one, where the
    Eyrie rule neither end (ignoring rule: 1->10).  The card is discarded as used."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["false-orders"])
    sc.put(g, "5", "bird-warrior", 3)   # adjacent: 1, 2
    sc.put(g, "1", "bird-warrior", 1)   # adjacent: 5, 9, 10
    sc.put(g, "1", "cat-warrior", 2)    # the Marquise rule 1
    sc.begin_turn(g, "marquise")
    uses = {n for n in g.legal() if n.startswith("use false-orders")}
    assert uses == {"use false-orders on eyrie"}
    g.apply("use false-orders on eyrie")
    assert sc.play_area(g, m) == [] and "false-orders" in g.cards_at(g.consts["LOC_DISCARD"])
    assert g.to_play == m and set(g.legal()) == {
        "move 5->1 x2", "move 5->2 x2", "move 1->5 x1", "move 1->9 x1", "move 1->10 x1"}
    g.apply("move 5->1 x2")
    assert sc.count(g, "5", "bird-warrior") == 1 and sc.count(g, "1", "bird-warrior") == 3
    assert g.to_play == m and g.phase in ("birdsong", "daylight")


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("used", [True, False])
def test_informants_take_an_ambush_instead_of_drawing(core_kind, order, used):
    """"In Evening, if you would draw cards, you may instead take one ambush card from
    the discard pile": the Marquise, her Daylight declined through the turn flow, are
    asked as her Evening's draw step begins (not before: her craft step passes
    unasked); used, she picks one of the pile's ambushes (not its other cards) and draws
    nothing; declined, she draws as ever."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["informants"])
    for card in ("fox-ambush", "anvil", "bird-ambush"):
        sc.move_card(g, card, g.consts["LOC_DISCARD"])
    deck = len(g.cards_at(g.consts["LOC_DECK"]))
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("done")
    while g.decision == "phase_end":  # (a last window of Daylight, if any)
        g.apply("done")
    assert (g.phase, g.decision, g.to_play) == ("evening", "draw_instead", m)
    assert set(g.legal()) == {"use informants", "done"}
    sc.set_stop(g, "end_of_phase")
    if used:
        g.apply("use informants")
        assert g.decision == "take" and g.to_play == m
        ambushes = {c for c in g.cards_at(g.consts["LOC_DISCARD"]) if c.endswith("-ambush")}
        assert {"fox-ambush", "bird-ambush"} <= ambushes  # (and what the setup discarded)
        assert set(g.legal()) == {f"spend {c}" for c in ambushes}
        g.apply("spend bird-ambush")
        assert g.hand(m) == ["bird-ambush"]
        assert len(g.cards_at(g.consts["LOC_DECK"])) == deck
        pile = g.cards_at(g.consts["LOC_DISCARD"])
        assert "bird-ambush" not in pile and {"anvil", "fox-ambush"} <= set(pile)
    else:
        g.apply("done")
        assert len(g.hand(m)) == 1 and "bird-ambush" not in g.hand(m)
        assert len(g.cards_at(g.consts["LOC_DECK"])) == deck - 1
    assert sc.stopped(g) in ("end_of_phase", "end_of_turn")  # (Evening: the turn's end)


def rest_of_her_turn(g, m) -> list[str]:
    """From her Daylight's actions, declined, to her turn's end: the decisions she is
    asked, each answered 'done' where she may (else her first option)."""
    from rootlaw.runtime import position as sc

    sc.set_stop(g, "end_of_turn")
    g.apply("done")
    seen = []
    while not sc.stopped(g) and g.to_play == m:
        seen.append(g.decision)
        g.apply("done" if "done" in g.legal() else sorted(g.legal())[0])
    return seen


@pytest.mark.parametrize("order", ORDERS[:2])
def test_informants_are_not_offered_with_no_ambush_in_the_pile(core_kind, order):
    """"You may instead take one ambush card": with none in the discard pile (a public
    place) there is nothing to take instead, so she is not asked and draws."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["informants"])
    for card in g.cards_at(g.consts["LOC_DISCARD"]):
        if card.endswith("-ambush"):
            sc.move_card(g, card, g.consts["LOC_DECK"])
    sc.move_card(g, "anvil", g.consts["LOC_DISCARD"])
    sc.goto(g, "marquise", "daylight", "actions")
    seen = rest_of_her_turn(g, m)
    assert "draw_instead" not in seen and "take" not in seen


def test_informants_replace_only_a_step_that_only_draws(tmp_path):
    """A draw step that does more (a pack's Evening step that draws a card and scores a
    point) is not passed for Informants: the window opens only at a step whose program
    only draws, so nothing else the step does is lost (a review's finding)."""
    import shutil

    from conftest import past_setup

    from rootlaw.runtime import position as sc
    from rootlaw.spec import resolve

    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    programs = json.loads((pack / "programs.json").read_text(encoding="utf-8"))
    programs["programs"]["draw_and_score"] = {
        "law": "6.6.2", "verb": "draw_and_score",
        "do": [{"op": "draw", "count": 1}, {"op": "score", "vp": 1}]}
    (pack / "programs.json").write_text(json.dumps(programs), encoding="utf-8")
    (pack / "evening.json").write_text(json.dumps({
        "kind": "patch", "target": "faction:marquise", "description": "draw and score",
        "patch": [{"op": "replace", "path": "/turn/evening/0",
                   "value": {"op": "draw_and_score"}}]}), encoding="utf-8")
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["content"].append("evening.json")
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    g = past_setup(ORDERS[0], bundle=resolve([pack], deck_id="exiles-partisans"),
                   pure=True, clear=True, empty_hands=True)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["informants"])
    sc.set_vp(g, m, 0)
    sc.move_card(g, "fox-ambush", g.consts["LOC_DISCARD"])
    sc.goto(g, "marquise", "daylight", "actions")
    seen = rest_of_her_turn(g, m)
    assert "draw_instead" not in seen and g.scores[m] == 1 and len(g.hand(m)) == 1


@pytest.mark.parametrize("order", ORDERS[:2])
def test_informants_wait_for_the_eyries_draw(core_kind, order):
    """The Eyrie's Evening scores its roosts first (Law 7.6.1): the window comes at its
    draw step, once per turn."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    e = g.factions.index("eyrie")
    sc.set_play_area(g, e, ["informants"])
    sc.move_card(g, "rabbit-ambush", g.consts["LOC_DISCARD"])
    sc.put(g, "1", "roost", 1)
    sc.set_vp(g, e, 0)
    sc.goto(g, "eyrie", "evening")
    while g.decision != "draw_instead":
        assert g.to_play == e and g.phase == "evening", g.decision
        g.apply("done" if "done" in g.legal() else sorted(g.legal())[0])
    assert g.scores[e] >= 0 and "use informants" in g.legal()
    g.apply("use informants")
    g.apply("spend rabbit-ambush")
    assert "rabbit-ambush" in g.hand(e)


@pytest.mark.parametrize("order", ORDERS[:2])
def test_eyrie_emigre_comes_after_the_eyries_birdsong(core_kind, order):
    """'At the end of Birdsong': the Eyrie's Birdsong steps come first (its cards added to
    the Decree, Law 7.4.2), then the move."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    e = g.factions.index("eyrie")
    sc.set_play_area(g, e, ["eyrie-emigre"])
    sc.set_hand(g, e, ["anvil", "bake-sale"])
    sc.put(g, "1", "bird-warrior", 2)
    sc.begin_turn(g, "eyrie")
    seen = []
    while g.phase == "birdsong":
        seen.append(g.decision)
        la = list(g.legal())
        g.apply(next((x for x in la if x.startswith("move 1->")), la[0]))
    assert "take_actions" in seen and seen.index("take_actions") == len(seen) - 1, seen
    assert seen[0] != "take_actions"


# ------------------------------------------ Coffin Makers: pieces held on a card

@pytest.mark.parametrize("order", ORDERS)
def test_coffin_makers_hold_every_warrior_removed(core_kind, order):
    """"Whenever any warriors would return to a supply, place them on this card
    instead": the Eyrie hold the card; the Marquise battle them (Law 4.3), two of the
    Eyrie's warriors and one of hers removed, and all three go on the card, not to the
    supplies (a building removed goes to its supply as ever)."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations

    g = deck_game(order, core_kind)
    e = g.factions.index("eyrie")
    sc.set_play_area(g, e, ["coffin-makers"])
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 2)
    sc.put(g, "5", "roost", 1)
    birds, cats = sc.supply(g, "bird-warrior"), sc.supply(g, "cat-warrior")
    roosts = sc.supply(g, "roost")
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 eyrie")
    assert sc.count(g, "5", "bird-warrior") == 0 and sc.count(g, "5", "roost") == 0
    assert sc.count(g, "5", "cat-warrior") == 2
    assert sc.held(g, e, "coffin-makers") == {"cat-warrior": 1, "bird-warrior": 2}
    assert sc.supply(g, "bird-warrior") == birds and sc.supply(g, "cat-warrior") == cats
    assert sc.supply(g, "roost") == roosts + 1
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_coffin_makers_score_per_five_then_empty_at_the_start_of_birdsong(core_kind, order):
    """"At the start of Birdsong, you score one point per five warriors here, then return
    all warriors here to their supplies": 11 warriors held (two players') score 2 at the
    start of the holder's Birdsong, reached from the turn before it; then each goes back
    to its owner's supply."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["coffin-makers"])
    sc.set_held(g, m, "coffin-makers", "bird-warrior", 7)
    sc.set_held(g, m, "coffin-makers", "cat-warrior", 4)
    birds, cats = sc.supply(g, "bird-warrior"), sc.supply(g, "cat-warrior")
    sc.set_vp(g, m, 0)
    sc.begin_turn(g, "marquise")
    while g.phase == "birdsong" and g.decision == "phase_start":
        assert g.to_play == m
        g.apply(next(n for n in g.legal() if "coffin-makers" in n))
    assert g.scores[m] == 2 and sc.held(g, m, "coffin-makers") == {}
    assert sc.supply(g, "bird-warrior") == birds + 7 and sc.supply(g, "cat-warrior") == cats + 4


@pytest.mark.parametrize("order", ORDERS[:2])
def test_coffin_makers_discarded_return_what_they_hold(core_kind, order):
    """A card that leaves the play area holds nothing: the Eyrie's Saboteurs discard the
    Marquise's Coffin Makers, and the warriors on it go back to their owners' supplies
    (the card's text says nothing of this; nothing else could become of them, Law
    1.5.1: a piece is on the map, in a supply, or in a box)."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, m, ["coffin-makers"])
    sc.set_play_area(g, e, ["saboteurs"])
    sc.set_held(g, m, "coffin-makers", "bird-warrior", 3)
    birds = sc.supply(g, "bird-warrior")
    sc.begin_turn(g, "eyrie")
    g.apply("use saboteurs on marquise")
    g.apply(next(n for n in g.legal() if "coffin-makers" in n))
    assert sc.play_area(g, m) == [] and sc.supply(g, "bird-warrior") == birds + 3
    assert not list(invariant_violations(g))


# --------------------------------------- what the other players may know (Law 1.2)

@pytest.mark.parametrize("order", ORDERS[:2])
@pytest.mark.parametrize("where", ["phase_end", "craft"])
def test_whether_she_is_asked_does_not_depend_on_her_hand(core_kind, order, where):
    """Twins that differ only in the Marquise's one card (a fox, matching the only
    clearing where Propaganda Bureau could replace a warrior, or a mouse): she is asked
    alike, at the end of her Daylight's actions and at her craft step (no workshop, so
    nothing to craft), whatever the card (the anytime effect is offered on public facts,
    Law 1.2; a review's finding: the card decided whether she was asked)."""
    from rootlaw.runtime import position as sc

    seen = []
    for card in ("anvil", "mouse-in-a-sack"):  # fox, mouse
        g = deck_game(order, core_kind)
        m = g.factions.index("marquise")
        sc.set_play_area(g, m, ["propaganda-bureau"])
        sc.set_hand(g, m, [card])
        sc.put(g, "1", "bird-warrior", 2)  # fox
        sc.put(g, "12", "cat-warrior", 1)
        if where == "craft":
            sc.goto(g, "marquise", "daylight")
        else:
            sc.goto(g, "marquise", "daylight", "actions")
            g.apply("done")
        seen.append((g.phase, g.decision, g.to_play,
                     sorted(n for n in g.legal() if not n.startswith("propaganda"))))
    assert seen[0] == seen[1], seen
    assert seen[0][1] in ("phase_end", "craft") and "use propaganda-bureau" in seen[0][3]


def test_an_item_trigger_has_no_clearing_to_act_in():
    """EFFECT-TARGET: a trigger on an item crafted runs in no clearing, so a part that
    acts there is refused, located (a review's finding: it validated and did nothing)."""
    import copy

    from rootlaw.spec import models as M
    from rootlaw.spec.semantics import check_document

    deck = json.loads((PACK / "deck.json").read_text(encoding="utf-8"))
    deck = copy.deepcopy(deck)
    deck.pop("$schema")
    i = next(k for k, c in enumerate(deck["cards"]) if c["id"] == "murine-broker")
    deck["cards"][i]["abilities"][0]["do"] = [{"op": "remove", "pieces": "enemy"}]
    found = [(d.code, d.pointer) for d in
             check_document(M.DeckSpec.model_validate(deck), "deck.json").diagnostics()]
    assert ("EFFECT-TARGET", f"/cards/{i}/abilities/0/do/0") in found, found


def _coffin_errors(mutate) -> list[tuple[str, str]]:
    import copy

    from rootlaw.spec import models as M
    from rootlaw.spec.semantics import check_document

    deck = copy.deepcopy(json.loads((PACK / "deck.json").read_text(encoding="utf-8")))
    deck.pop("$schema")
    i = next(k for k, c in enumerate(deck["cards"]) if c["id"] == "coffin-makers")
    mutate(deck["cards"][i])
    doc = M.DeckSpec.model_validate(deck)
    return [(d.code, d.pointer.replace(f"/cards/{i}/", "/card/"))
            for d in check_document(doc, "deck.json").diagnostics() if d.severity == "error"]


@pytest.mark.parametrize("mutate, found", [
    (lambda c: None, []),
    # a box that is not the card's own
    (lambda c: c["abilities"][0]["do"][0].update(box="graves"),
     [("EFFECT-PART", "/card/abilities/0/do/0/box")]),
    (lambda c: c["abilities"][1]["do"][0]["vp"].update(divided={"box": "graves"}),
     [("EFFECT-PART", "/card/abilities/1/do/0/vp/divided/box")]),
    # a card without a box names none
    (lambda c: c.pop("box"),
     [("EFFECT-PART", "/card/abilities/0/do/0/box"),
      ("EFFECT-PART", "/card/abilities/1/do/0/vp/divided/box"),
      ("EFFECT-PART", "/card/abilities/1/do/1/box")]),
    # emptied whole: no count
    (lambda c: c["abilities"][1]["do"][1].update(count=3),
     [("EFFECT-PART", "/card/abilities/1/do/1/count")]),
    # 'piece' is the piece removed only in a trigger for each piece removed
    (lambda c: c["abilities"][1]["do"].append(
        {"op": "into_box", "piece": "piece", "box": "coffins"}),
     [("EFFECT-PART", "/card/abilities/1/do/2/piece")]),
    (lambda c: c["abilities"][0]["do"][0].update(piece="cat-warrior"),
     [("EFFECT-PART", "/card/abilities/0/do/0/piece")]),
    # the box is the holder's: carried out by the holder, for the holder (a review's
    # finding: another player's program looked for the card in its own play area)
    (lambda c: c["abilities"][0].update(actor="other"),
     [("EFFECT-PART", "/card/abilities/0/do/0")]),
    (lambda c: c["abilities"][1].update(target="other_player") or
     c["abilities"][1]["do"][0].update(who="target"),
     [("EFFECT-PART", "/card/abilities/1/do/0/who")]),
])
def test_a_cards_box_is_named_by_its_own_programs_only(mutate, found):
    """EFFECT-PART: a card's programs name the card's own box and no other, a box any
    player's pieces are in empties whole, and 'piece' is a trigger's piece removed only
    in a trigger for each piece; each a located error (the generator would have raised,
    unlocated)."""
    assert _coffin_errors(mutate) == found


@pytest.mark.parametrize("change, field", [
    ({"by": "enemy"}, "whose"), ({"pieces": ["warrior", "roost"]}, "whose"),
    ({"per_piece": False}, "whose"),
    ({"per_piece": True, "in_battle": "defending"}, "whose")])
def test_any_players_warriors_removed_by_anyone(change, field):
    """'whose': 'any' reacts to every player's warriors removed by anyone; a narrower
    trigger is refused where it is written (VALUE-INVALID)."""
    from pydantic import ValidationError

    from rootlaw.spec import models as M

    trig = {"kind": "trigger", "id": "t", "on": "pieces_removed", "pieces": ["warrior"],
            "whose": "any", "by": "any", "per_piece": True,
            "do": [{"op": "score", "vp": 1}]}
    M.Trigger.model_validate(trig)
    with pytest.raises(ValidationError, match="whose"):
        M.Trigger.model_validate({**trig, **change})


def test_a_factions_trigger_reacts_to_its_own_pieces():
    """EFFECT-PART: a faction's trigger on any player's warriors is refused (they would
    go into a card's box); and a value's box inside 'half' or 'times' is checked like
    any other (both were read by no check before)."""
    from rootlaw.spec import models as M
    from rootlaw.spec.loader import load_pack
    from rootlaw.spec.semantics import check_document

    _, docs = load_pack(Path(__file__).resolve().parents[1] / "examples" / "lizard-cult" /
                        "pack.json")
    cult = next(d for _, d in docs if isinstance(d, M.FactionSpec))
    raw = cult.model_dump(by_alias=True, exclude_unset=True)
    raw["abilities"][0] = {"kind": "trigger", "id": "t", "on": "pieces_removed",
                           "pieces": ["warrior"], "whose": "any", "by": "any",
                           "per_piece": True, "do": [{"op": "score", "vp": 1}]}
    raw["abilities"].append({"kind": "effect", "id": "e", "timing": "daylight",
                             "do": [{"op": "score", "vp": {"half": {"box": "acolyte"}}}]})
    found = [(d.code, d.pointer) for d in
             check_document(M.FactionSpec.model_validate(raw), "cult.json").diagnostics()
             if d.severity == "error"]
    n = len(raw["abilities"]) - 1
    assert ("EFFECT-PART", "/abilities/0/whose") in found, found
    assert ("EFFECT-PART", f"/abilities/{n}/do/0/vp/half/box") in found, found


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rescue", [True, False])
def test_a_removed_warrior_is_rescued_or_held_not_both(core_kind, order, rescue):
    """Field Hospitals (Law 6.2.3) and Coffin Makers both take removed warriors "instead
    of the supply": one warrior, one rule.  In the Marquise's battle her reactions come
    first (the player taking their turn, Law's "Unclear Resolutions"): rescued, her
    warrior goes to the keep and not on the Eyrie's card; declined, it goes on the card.
    Either way no warrior comes out of the supply that was not removed (a review of
    stop 37's first commit: both took it)."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, e, ["coffin-makers"])
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 2)
    sc.set_hand(g, m, ["rabbit-root-tea"])  # matches rabbit clearing 5
    cats = sc.supply(g, "cat-warrior")
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 eyrie")
    assert g.decision == "rescue" and g.to_play == m
    g.apply("spend rabbit-root-tea" if rescue else "done")
    held = sc.held(g, e, "coffin-makers")
    assert held.get("bird-warrior") == 2
    assert sc.count(g, "1", "cat-warrior") == (1 if rescue else 0)
    assert held.get("cat-warrior", 0) == (0 if rescue else 1)
    assert sc.supply(g, "cat-warrior") == cats
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_two_removals_in_a_row_each_give_only_their_own_warriors(core_kind, order):
    """Two of the Marquise's battles, one after the other (two Daylight actions): the
    first's removed cat goes on the Eyrie's card (Field Hospitals declined), so nothing
    of it is left to take; the second's one cat is rescued to the keep, one and not two
    (the count of removed warriors not yet taken is begun anew for each removal, design
    .md "Which rule gets a removed warrior"), and the card keeps what it took."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, e, ["coffin-makers"])
    sc.put(g, "1", "keep", 1)
    for c in ("5", "9"):  # rabbit, mouse
        sc.put(g, c, "cat-warrior", 3)
        sc.put(g, c, "bird-warrior", 2)
    sc.set_hand(g, m, ["rabbit-root-tea", "mouse-root-tea"])
    cats, birds = sc.supply(g, "cat-warrior"), sc.supply(g, "bird-warrior")
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 3, 1)
    g.apply("battle 5 eyrie")
    assert g.decision == "rescue" and g.to_play == m
    g.apply("done")
    assert sc.held(g, e, "coffin-makers") == {"cat-warrior": 1, "bird-warrior": 2}
    assert g.decision == "actions" and g.to_play == m
    sc.set_dice(g, 3, 1)
    g.apply("battle 9 eyrie")
    assert g.decision == "rescue" and g.to_play == m
    assert "spend mouse-root-tea" in g.legal() and "spend rabbit-root-tea" not in g.legal()
    g.apply("spend mouse-root-tea")
    assert sc.count(g, "1", "cat-warrior") == 1
    assert sc.held(g, e, "coffin-makers") == {"cat-warrior": 1, "bird-warrior": 4}
    assert sc.supply(g, "cat-warrior") == cats and sc.supply(g, "bird-warrior") == birds
    assert g.hand(m) == ["rabbit-root-tea"]
    assert not list(invariant_violations(g))


@pytest.mark.parametrize("order", ORDERS)
def test_held_first_then_nothing_left_to_rescue(core_kind, order):
    """In the Eyrie's battle the Eyrie's reactions come first: Coffin Makers take the
    Marquise's removed warrior, and Field Hospitals have nothing left to place, so she
    is not asked to spend a card for nothing."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.set_play_area(g, e, ["coffin-makers"])
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, m, ["rabbit-root-tea"])
    for col in ("recruit", "move", "build"):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "battle", ["bake-sale"])  # a rabbit card: clearing 5
    cats = sc.supply(g, "cat-warrior")
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 1, 0)
    g.apply("battle 5 marquise")
    assert g.decision == "ambush" and g.to_play == m  # (asked: she holds a card)
    g.apply("done")
    assert g.decision != "rescue"
    assert sc.held(g, e, "coffin-makers") == {"cat-warrior": 1}
    assert sc.count(g, "1", "cat-warrior") == 0 and sc.supply(g, "cat-warrior") == cats


CULT = Path(__file__).resolve().parent.parent / "examples" / "lizard-cult"


# (The Marquise's turn follows the Eyrie's: the Cult's would begin by emptying the card.)
@pytest.mark.parametrize("order", [("eyrie", "marquise", "lizard-cult"),
                                   ("lizard-cult", "eyrie", "marquise")])
@pytest.mark.parametrize("first", ["revenge", "coffin-makers"])
def test_revenge_or_the_coffin_one_warrior_one_rule(core_kind, order, first):
    """The Cult holds Coffin Makers; the Eyrie battle it and remove two lizards, which
    Revenge (Law 10.2.3: "placed in the Acolytes box instead of the Cult's supply") and
    the card both take.  Both are the Cult's, so it orders them (Law 4.3.6); the first
    takes both warriors, the other none."""
    from conftest import past_setup

    from rootlaw.generator import build as gbuild
    from rootlaw.runtime import position as sc
    from rootlaw.spec import resolve

    bundle = resolve([CULT, PACK], deck_id="exiles-partisans")
    gbuild.compile_core(bundle)
    g = past_setup(order, bundle=bundle, pure=core_kind == "pure", clear=True,
                   empty_hands=True)
    assert g.compiled == (core_kind == "compiled")
    cult, e = g.factions.index("lizard-cult"), g.factions.index("eyrie")
    sc.set_play_area(g, cult, ["coffin-makers"])
    sc.put(g, "5", "lizard", 2)
    sc.put(g, "5", "bird-warrior", 3)
    for col in ("recruit", "move", "build"):
        sc.set_column(g, e, col, [])
    sc.set_column(g, e, "battle", ["bake-sale"])  # a rabbit card: clearing 5
    lizards, acolytes = sc.supply(g, "lizard"), g.box(cult, "acolytes")
    sc.goto(g, "eyrie", "daylight", "resolve_columns")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 lizard-cult")
    assert sc.count(g, "5", "lizard") == 0
    assert g.decision == "react_order" and g.to_play == cult
    assert sorted(g.legal()) == ["first coffin-makers", "first revenge"]
    g.apply(f"first {first}")
    held = sc.held(g, cult, "coffin-makers").get("lizard", 0)
    assert (held, g.box(cult, "acolytes") - acolytes) == ((0, 2) if first == "revenge" else (2, 0))
    assert sc.supply(g, "lizard") == lizards


@pytest.mark.parametrize("order", [["marquise", "eyrie"], ["eyrie", "marquise"]])
def test_a_scenario_sets_and_checks_what_a_card_holds(core_kind, order):
    """The scenario key `held` (runtime/scenario.py): six warriors put on the Eyrie's
    Coffin Makers, taken from their supplies; at the start of the Eyrie's Birdsong
    (reached from the Marquise's turn before it) they score 1 and go back.  A card not
    in the play area is a located SCENARIO-INVALID."""
    from rootlaw.generator import build as gbuild
    from rootlaw.runtime.scenario import run_scenario
    from rootlaw.spec import resolve

    bundle = resolve([PACK], deck_id="exiles-partisans")
    gbuild.compile_core(bundle)
    scenario = {
        "factions": order, "seed": 1,
        "position": {"clear": True, "play_area": {"eyrie": ["coffin-makers"]},
                     "held": {"eyrie": {"coffin-makers": {"cat-warrior": 4,
                                                          "bird-warrior": 2}}},
                     "vp": {"eyrie": 0},
                     "turn": {"faction": "marquise", "phase": "daylight", "step": "actions"}},
        "steps": [{"expect": {"held": {"eyrie": {"coffin-makers": {"cat-warrior": 4,
                                                                   "bird-warrior": 2}}},
                              "supply": {"cat-warrior": 21, "bird-warrior": 18}}},
                  {"do": ["done"],
                   "expect": {"vp": {"eyrie": 1}, "supply": {"cat-warrior": 25,
                                                             "bird-warrior": 20},
                              "held": {"eyrie": {"coffin-makers": {"cat-warrior": 0,
                                                                   "bird-warrior": 0}}}}}]}
    assert run_scenario(scenario, bundle=bundle, pure=core_kind == "pure") == []
    bad = {**scenario, "position": {**scenario["position"], "play_area": {}}}
    problems = run_scenario(bad, bundle=bundle, pure=core_kind == "pure")
    assert len(problems) == 1 and "SCENARIO-INVALID" in problems[0]
    assert "/position/held/eyrie/coffin-makers" in problems[0]


def test_a_value_inside_half_or_divided_is_read_where_it_is_refused(tmp_path):
    """PROGRAM-SHAPE: a library program's value reading a trigger's event's pieces is
    refused, located, inside 'half' and 'divided' too (a review's finding: validation
    passed, and the generator raised, unlocated)."""
    import shutil

    from rootlaw.spec.validate import validate

    for vp in ({"half": {"event": "pieces"}}, {"divided": {"event": "pieces"}, "by": 2}):
        pack = tmp_path / "ep"
        shutil.rmtree(pack, ignore_errors=True)
        shutil.copytree(PACK, pack)
        programs = json.loads((pack / "programs.json").read_text(encoding="utf-8"))
        programs["programs"]["propaganda"]["do"].append({"op": "score", "vp": vp})
        (pack / "programs.json").write_text(json.dumps(programs), encoding="utf-8")
        found = {(d.code, d.pointer.split("/vp")[0]) for d in validate([pack]).diagnostics
                 if d.severity == "error"}
        n = len(programs["programs"]["propaganda"]["do"]) - 1
        assert ("PROGRAM-SHAPE", f"/programs/propaganda/do/{n}") in found, found


def test_a_rule_taking_another_piece_than_the_removed_one_is_not_capped():
    """Only a part that takes the removed pieces themselves is capped by those not yet
    taken (a review's finding: 'when a garden is removed, put that many lizards in a
    box' put none in a bundle with Coffin Makers)."""
    from rootlaw.generator.programs import compile_effect_part
    from rootlaw.spec import models as M
    from rootlaw.spec.loader import load_pack

    into = M.IntoBoxPart.model_validate({"op": "into_box", "piece": "lizard",
                                         "box": "acolytes", "count": {"event": "pieces"}})
    faction = next(d for _, d in load_pack(CULT / "pack.json")[1]
                   if isinstance(d, M.FactionSpec))
    pidx = {k: i for i, k in enumerate(faction.pieces)}
    capped = compile_effect_part(into, 0, 0, "t", faction, pidx, removed=("lizard",))
    other = compile_effect_part(into, 0, 0, "t", faction, pidx, removed=("fox-garden",))
    assert "take_loose" in capped.code and "take_loose" not in other.code


def test_a_card_moved_out_of_play_by_a_position_holds_nothing():
    """The position helpers (and so a scenario's keys) move a card out of a play area as
    the engine's discard does: what it held goes back to the supplies, and the invariant
    checker finds pieces held on a card outside the play areas (a review's finding: the
    three warriors were lost, and came back with the card in another play area)."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations

    g = deck_game(ORDERS[0], "pure")
    m, e = g.factions.index("marquise"), g.factions.index("eyrie")
    cats = sc.supply(g, "cat-warrior")
    sc.set_play_area(g, m, ["coffin-makers"])
    sc.set_held(g, m, "coffin-makers", "cat-warrior", 3)
    assert sc.supply(g, "cat-warrior") == cats - 3
    sc.set_play_area(g, m, [])

    def pieces_wrong():  # (the emptied board leaves the decision with no action: not ours)
        return [v for v in invariant_violations(g) if "legal action" not in v]
    assert sc.supply(g, "cat-warrior") == cats and not pieces_wrong()
    sc.set_play_area(g, e, ["coffin-makers"])
    assert sc.held(g, e, "coffin-makers") == {}
    sc.set_held(g, e, "coffin-makers", "cat-warrior", 2)
    card = g.names["cards"].index("coffin-makers")
    at = next(i for i in range(g.consts["N"]) if g.state[g.S["CARD_LOC"] + i] ==
              g.consts["LOC_PLAY"] + e and sc._tab(g, "CARD_DEF", i) == card)
    g.state[g.S["CARD_LOC"] + at] = g.consts["LOC_DISCARD"]  # (corrupt: no emptying)
    assert [v for v in pieces_wrong() if "no play area" in v]


@pytest.mark.parametrize("rounding, vp", [("down", 2), ("up", 3)])
def test_divided_rounds_down_or_up(tmp_path, rounding, vp):
    """The value 'divided' rounds down unless it says up: Coffin Makers written to round
    up score 3 for 11 warriors, as written 2 (pure core: a copy of the pack)."""
    import shutil

    from conftest import past_setup

    from rootlaw.runtime import position as sc
    from rootlaw.spec import resolve

    pack = tmp_path / "ep"
    shutil.copytree(PACK, pack)
    deck = json.loads((pack / "deck.json").read_text(encoding="utf-8"))
    card = next(c for c in deck["cards"] if c["id"] == "coffin-makers")
    card["abilities"][1]["do"][0]["vp"]["round"] = rounding
    (pack / "deck.json").write_text(json.dumps(deck), encoding="utf-8")
    g = past_setup(("marquise", "eyrie"), bundle=resolve([pack], deck_id="exiles-partisans"),
                   pure=True, clear=True, empty_hands=True)
    sc.set_play_area(g, 0, ["coffin-makers"])
    sc.set_held(g, 0, "coffin-makers", "bird-warrior", 11)
    sc.set_vp(g, 0, 0)
    sc.begin_turn(g, "marquise")
    while g.phase == "birdsong" and g.decision == "phase_start":
        g.apply(next(n for n in g.legal() if "coffin-makers" in n))
    assert g.scores[0] == vp and sc.held(g, 0, "coffin-makers") == {}


def _to_her_next_daylight(g, m):
    """Play on through the turn flow (the first legal actions, 'done' where it is
    offered) to seat m's Daylight actions of a later turn."""
    turn = g.turn
    for _ in range(2000):
        if g.turn != turn and g.to_play == m and g.phase == "daylight" and \
                g.decision == "actions":
            return
        la = g.legal()
        g.apply("done" if "done" in la else next(iter(la)))
    raise AssertionError("her next Daylight never came")


@pytest.mark.parametrize("order", ORDERS)
def test_league_of_adventurous_mice_exhausts_an_item_for_a_move_or_a_battle(core_kind,
                                                                          order):
    """"Once during Daylight, you may exhaust (flip) an item in your Crafted Items box to
    take a move or initiate a battle" (Law A.2): offered among the Marquise's Daylight
    actions while one of her crafted items is face up, and once a turn; used, one item
    is face down and she takes a move or a battle, her own three actions still hers.
    Nothing refreshes it (the Law gives a Crafted Items box no refresh, Law 9.4.1 and
    18.6.3 being the Vagabond's and the Knaves' own): her next turn, reached through the
    turn flow, offers it for the other item, and the one after that not at all."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    other = next(f for f in order if f != "marquise")
    foe = {"eyrie": "bird-warrior", "alliance": "alliance-warrior"}[other]
    sc.set_play_area(g, m, ["league-of-adventurous-mice"])
    sc.put(g, "12", "cat-warrior", 3)
    sc.put(g, "9", foe, 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use league-of-adventurous-mice" not in g.legal()  # no item crafted
    sc.set_crafted(g, m, "boot", 1)
    sc.set_crafted(g, m, "sword", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use league-of-adventurous-mice" in g.legal()
    g.apply("use league-of-adventurous-mice")
    assert sc.exhausted(g, m) == 1 and sum(sc.crafted(g, m).values()) == 2
    assert g.decision == "take_actions" and g.to_play == m
    assert "move 12->9 x1" in g.legal() and "done" not in g.legal()
    g.apply("move 12->9 x1")
    assert (g.decision, g.to_play) == ("actions", m)
    assert "use league-of-adventurous-mice" not in g.legal()  # once during Daylight
    assert sc.count(g, "9", "cat-warrior") == 1
    g.apply("battle 9 " + other)  # her own actions: the first of three
    while g.decision != "actions":
        g.apply("done" if "done" in g.legal() else next(iter(g.legal())))
    assert g.to_play == m
    _to_her_next_daylight(g, m)
    assert "use league-of-adventurous-mice" in g.legal()  # the sword still face up
    sc.put(g, "12", "cat-warrior", 2)
    sc.put(g, "12", foe, 1)
    g.apply("use league-of-adventurous-mice")
    assert sc.exhausted(g, m) == 2
    battles = {n for n in g.legal() if n.startswith("battle")}
    assert "battle 12 " + other in battles  # a move or a battle: she battles
    g.apply("battle 12 " + other)
    while not (g.decision == "actions" and g.to_play == m):
        g.apply("done" if "done" in g.legal() else next(iter(g.legal())))
    assert "use league-of-adventurous-mice" not in g.legal()
    _to_her_next_daylight(g, m)
    assert sc.exhausted(g, m) == 2  # still face down: nothing refreshed them
    assert "use league-of-adventurous-mice" not in g.legal()


def test_league_of_adventurous_mice_is_not_offered_with_nothing_to_take(core_kind):
    """With a face-up item but no warrior to move and none to battle with, the card is
    not offered: exhausting an item would take no action (public facts only)."""
    from rootlaw.runtime import position as sc

    g = deck_game(("marquise", "eyrie"), core_kind)
    m = g.factions.index("marquise")
    sc.set_play_area(g, m, ["league-of-adventurous-mice"])
    sc.set_crafted(g, m, "boot", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use league-of-adventurous-mice" not in g.legal()
    sc.put(g, "12", "cat-warrior", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use league-of-adventurous-mice" in g.legal()


def test_exhausted_items_are_kept_within_the_crafted():
    """A position cannot leave more items exhausted than crafted, and the invariant
    checker finds one that does (Law 4.1.2: the items are the box's)."""
    from rootlaw.runtime import position as sc
    from rootlaw.runtime.conformance import invariant_violations
    from rootlaw.runtime.errors import RootlawError

    g = deck_game(("marquise", "eyrie"), "pure")
    sc.set_crafted(g, 0, "boot", 1)
    sc.set_exhausted(g, 0, 1)
    with pytest.raises(RootlawError, match="exhausted"):
        sc.set_crafted(g, 0, "boot", 0)
    with pytest.raises(RootlawError, match="exhausted"):
        sc.set_exhausted(g, 0, 2)
    # (the emptied board leaves a decision with nothing to do: only these are read)
    assert not [v for v in invariant_violations(g) if "exhausted" in v]
    g.state[g.S["EXHAUSTED"]] = 2
    assert [v for v in invariant_violations(g) if "exhausted" in v] == \
        ["seat 0: 2 exhausted items, not 0 to its crafted items"]


# ---- links of the holder's own are its adjacency (Law 2.3) in every rule, not only moves
# Autumn: the river 5-10 is no path (5's paths: 1, 2; 10's: 1, 2, 12); 11's paths: 3, 6,
# 12 (the rivers 7-11 and 10-11 are none); 1's: 5, 9, 10.


def _builds(g) -> set[str]:
    return {n for n in g.legal() if n.startswith("build ")}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("held", [True, False])
def test_boat_builders_carry_wood_along_a_river(core_kind, order, held):
    """"Treat rivers as paths" (Boat Builders; Law 2.3: clearings linked by a path are
    adjacent): a build's wood comes from clearings connected through clearings the
    builder rules (Law 6.5.4.II), so with the card the wood in 10 pays for a sawmill in
    5, across the river; without it, 5 and 10 are not connected (1 and 2 are no one's)."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    if held:
        sc.set_play_area(g, m, ["boat-builders"])
    sc.put(g, "8", "sawmill", 1)  # the next sawmill costs one wood
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "10", "cat-warrior", 1)
    sc.put(g, "10", "wood", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert "build sawmill 10" in _builds(g)
    assert ("build sawmill 5" in _builds(g)) == held
    if held:
        g.apply("build sawmill 5")
        assert sc.count(g, "5", "sawmill") == 1 and sc.count(g, "10", "wood") == 0


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("held", [True, False])
def test_tunnels_join_the_workshops_for_a_builds_wood(core_kind, order, held):
    """"You treat clearings with any of your crafting pieces as adjacent" (Tunnels): the
    workshops in 1 and 11 are adjacent for the Marquise, so the wood in 1 pays for a
    sawmill in 11 (both ruled, Law 6.5.4.II); without the card they are not connected."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    m = g.factions.index("marquise")
    if held:
        sc.set_play_area(g, m, ["tunnels"])
    sc.put(g, "8", "sawmill", 1)
    sc.put(g, "1", "workshop", 1)
    sc.put(g, "11", "workshop", 1)
    sc.put(g, "1", "wood", 1)
    sc.goto(g, "marquise", "daylight", "actions")
    assert ("build sawmill 11" in _builds(g)) == held
    if held:
        g.apply("build sawmill 11")
        assert sc.count(g, "11", "sawmill") == 1 and sc.count(g, "1", "wood") == 0


ALLIANCE_ORDERS = [("alliance", "eyrie"), ("eyrie", "alliance"), ("marquise", "alliance", "eyrie")]


@pytest.mark.parametrize("order", ALLIANCE_ORDERS)
@pytest.mark.parametrize("holder", ["alliance", "another", None])
def test_boat_builders_spread_sympathy_along_a_river(core_kind, order, holder):
    """The Alliance spreads sympathy to a clearing adjacent to a sympathetic one (Law
    8.4.2): with Boat Builders a river makes 10 adjacent to 5; without, 1 and 2 only.
    The links are the holder's: the card in another player's play area changes nothing
    for the Alliance."""
    from rootlaw.runtime import position as sc

    g = deck_game(order, core_kind)
    a = g.factions.index("alliance")
    held = holder == "alliance"
    if holder is not None:
        sc.set_play_area(g, a if held else (a + 1) % g.num_players, ["boat-builders"])
    sc.put(g, "5", "sympathy", 1)
    sc.set_zone(g, a, "supporters", ["bird-crossbow", "birdy-bindle"])
    sc.goto(g, "alliance", "birdsong")
    g.apply("done")  # no revolt
    spreads = {n for n in g.legal() if n.startswith("spread ")}
    assert {"spread 1", "spread 2"} <= spreads
    assert ("spread 10" in spreads) == held
    if held:
        g.apply("spread 10")
        assert g.decision == "zone_pay"  # which of two birds: the Alliance's pick
        g.apply(next(n for n in g.legal() if "bird-crossbow" in n))
        assert sc.count(g, "10", "sympathy") == 1
        assert g.zone(a, "supporters") == ["birdy-bindle"]
