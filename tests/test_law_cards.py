"""Every card of the standard deck that is not an item does what it says (Law 4.1; the
printed text of each card; the Law section of its timing).  Each card is crafted in
Daylight through the craft step, by the Marquise and by the Eyrie where the card's
effect does not depend on the crafter, then seen to act at its timing reached through
the engine's own turn flow.

Every test runs on the compiled and on the pure core.  Seats are Marquise 0 and Eyrie 1,
but for the tests of Stand and Deliver! at the Decree, which seat them in several orders.
Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9 11.
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc

M, E = 0, 1
LOC_DISCARD = 1
CRAFTING = {"marquise": "workshop", "eyrie": "roost"}
BY_SUIT = {"fox": ("1", "6", "8", "12"), "rabbit": ("3", "4", "5", "10"),
           "mouse": ("2", "7", "9", "11")}
FACTIONS = ["marquise", "eyrie"]


def crafting_pieces(g, faction: str, suits: list[str]) -> None:
    """One crafting piece of the faction per icon, in clearings of those suits."""
    used = dict.fromkeys(BY_SUIT, 0)
    for su in suits:
        c = BY_SUIT[su][used[su]]
        used[su] += 1
        sc.put(g, c, CRAFTING[faction], sc.count(g, c, CRAFTING[faction]) + 1)


def empty_decree(g) -> None:
    lo = g.consts["LOC_COLUMN"] + E * g.consts["L"]
    for i in range(g.consts["N"]):
        if lo <= g.state[g.S["CARD_LOC"] + i] < lo + g.consts["L"]:
            vizier = g.names["cards"][g.card_defs[i]] == "loyal-vizier"
            g.state[g.S["CARD_LOC"] + i] = g.consts["LOC_RESERVE"] if vizier else LOC_DISCARD


def to_daylight_craft(g, faction: str) -> None:
    if faction == "eyrie":
        sc.set_role(g, E, "builder")
        empty_decree(g)
    sc.goto(g, faction, "daylight", "craft")
    assert g.decision == "craft" and g.factions[g.to_play] == faction


def craft(g, faction: str, card: str, suits: list[str]) -> int:
    """Craft card in the faction's Daylight (pieces for the suits, the card in hand);
    return the crafter's seat.  A spare crafting piece and a second card keep the craft
    step open afterwards (asked on public facts), so the Daylight waits there."""
    me = g.factions.index(faction)
    spare = next(s for s in ("rabbit", "mouse", "fox") if s not in suits) \
        if len(set(suits)) < 3 else "mouse"
    crafting_pieces(g, faction, [*suits, spare])
    sc.set_hand(g, me, [card, "bird-ambush"])
    to_daylight_craft(g, faction)
    assert f"craft {card}" in g.legal()
    g.apply(f"craft {card}")
    return me


def eyrie_decree_battle(g) -> None:
    """The Eyrie's Daylight with one battle card (a bird) on an otherwise empty Decree."""
    sc.set_role(g, E, "builder")
    empty_decree(g)
    sc.move_card(g, "bird-crossbow", sc.column_loc(g, E, "battle"))
    sc.goto(g, "eyrie", "daylight", "resolve_columns")


def drive(g, until, limit: int = 500) -> None:
    """Play on through the turn flow ('done' where offered, else the first action)
    until the condition holds."""
    for _ in range(limit):
        if until(g):
            return
        assert not g.is_over
        legal = g.legal()
        g.apply("done" if "done" in legal else next(iter(legal)))
    raise AssertionError("the condition never held")


def end_daylight(g) -> None:
    """Decline what is left of the current Daylight (its actions, its last window)."""
    me = g.current
    drive(g, lambda g: g.phase != "daylight" or g.current != me)


# ---------------------------------------------------------------- 4.1 crafting

@pytest.mark.parametrize("faction", FACTIONS)
def test_persistent_card_goes_to_the_play_area(mid_game, faction):
    """Law 4.1.3: a crafted persistent card is placed in the crafter's play area (and
    scores nothing: it has no VP)."""
    g = mid_game()
    me = craft(g, faction, "codebreakers", ["mouse"])
    assert g.play_area(me) == ["codebreakers"] and "codebreakers" not in g.hand(me)
    assert g.scores[me] == 0


@pytest.mark.parametrize("faction", FACTIONS)
def test_no_duplicate_persistent_cards(mid_game, faction):
    """Law 4.1.4: a persistent card identical to one in your play area cannot be
    crafted; another persistent card can."""
    g = mid_game()
    me = g.factions.index(faction)
    sc.move_card(g, "armorers", g.consts["LOC_PLAY"] + me)
    crafting_pieces(g, faction, ["fox", "mouse"])
    sc.set_hand(g, me, ["armorers", "sappers"])
    to_daylight_craft(g, faction)
    legal = set(g.legal())
    assert "craft armorers" not in legal and "craft sappers" in legal


@pytest.mark.parametrize("faction", FACTIONS)
def test_every_card_the_law_lets_a_player_craft_is_offered(mid_game, faction):
    """Law 4.1: every card with a crafting cost can be crafted (items while their item
    is in the supply, 4.1.2); ambush and dominance cards cannot (2.1.2, 2.1.3)."""
    g = mid_game()
    me = g.factions.index(faction)
    deck = g.bundle.deck
    for card in deck.cards:
        sc.clear_board(g)
        crafting_pieces(g, faction, [s if s != "any" else "mouse" for s in card.cost] or
                        ["fox"])
        sc.set_hand(g, me, [card.id])
        to_daylight_craft(g, faction) if card.cost else \
            sc.goto(g, faction, "daylight", "craft")
        offered = f"craft {card.id}" in g.legal()
        assert offered == bool(card.cost), card.id


# ---------------------------------------------------------------- immediate: the Favors

@pytest.mark.parametrize("favor,suit", [("favor-of-the-foxes", "fox"),
                                        ("favor-of-the-rabbits", "rabbit"),
                                        ("favor-of-the-mice", "mouse")])
@pytest.mark.parametrize("faction", FACTIONS)
def test_favor_removes_every_enemy_piece_in_its_suit_then_is_discarded(mid_game, favor,
                                                                       suit, faction):
    """Favor of the Foxes / Rabbits / Mice (Law 4.1.2, immediate): remove all enemy
    pieces in clearings of the suit -- warriors, buildings and tokens (the FAQ: all of
    them) -- scoring 1 VP per building and token (Law 3.2.1); your own pieces stay; the
    card is then discarded."""
    g = mid_game()
    me = g.factions.index(faction)
    enemy = 1 - me
    first, second = BY_SUIT[suit][1], BY_SUIT[suit][2]
    other = BY_SUIT["fox" if suit != "fox" else "mouse"][1]
    if enemy == M:
        sc.put(g, first, "cat-warrior", 2)
        sc.put(g, first, "wood", 1)
        sc.put(g, second, "sawmill", 1)
        sc.put(g, other, "cat-warrior", 1)
        enemy_pieces = ("cat-warrior", "wood", "sawmill")
    else:
        sc.put(g, first, "bird-warrior", 2)
        sc.put(g, second, "roost", 1)
        sc.put(g, other, "bird-warrior", 1)
        enemy_pieces = ("bird-warrior", "roost")
    mine = "cat-warrior" if me == M else "bird-warrior"
    sc.put(g, first, mine, 1)
    sc.set_hand(g, enemy, [])
    sc.set_vp(g, me, 0)
    craft(g, faction, favor, [suit, suit, suit])
    for c in BY_SUIT[suit]:
        assert all(sc.count(g, c, p) == 0 for p in enemy_pieces), c
    assert sc.count(g, first, mine) == 1
    assert sum(sc.count(g, other, p) for p in enemy_pieces) == 1  # other suits untouched
    assert g.scores[me] == (2 if enemy == M else 1)
    assert favor in g.cards_at(LOC_DISCARD) and g.play_area(me) == []
    assert g.decision in ("craft", "actions", "resolve_columns")


# ---------------------------------------------------------------- battle: 4.3.1, 4.3.4

def marquise_battle(g, cats=3, birds=3, where="5", e_hand=()):
    sc.put(g, where, "cat-warrior", cats)
    sc.put(g, where, "bird-warrior", birds)
    sc.set_hand(g, E, list(e_hand))


def test_scouting_party_ambushes_have_no_effect_on_its_attacker(mid_game):
    """Scouting Party ('as attacker in battle, you are not affected by ambush cards',
    Law 4.3.1): crafted, then the Marquise attacks in the same Daylight; the defender,
    holding a matching ambush, is not even asked (the play area is public)."""
    g = mid_game()
    marquise_battle(g, e_hand=["rabbit-ambush"])
    craft(g, "marquise", "scouting-party", ["mouse", "mouse"])
    drive(g, lambda g: g.decision == "actions")
    sc.set_dice(g, 1, 1)
    g.apply("battle 5 eyrie")
    assert g.decision != "ambush"
    assert "rabbit-ambush" in g.hand(E)
    assert sc.count(g, "5", "cat-warrior") == 2 and sc.count(g, "5", "bird-warrior") == 2


def test_scouting_party_does_not_help_its_holder_as_defender(mid_game):
    """Scouting Party works as attacker only: attacked, its holder faces ambushes."""
    g = mid_game()
    sc.move_card(g, "scouting-party", g.consts["LOC_PLAY"] + E)
    sc.put(g, "5", "bird-warrior", 3)
    sc.put(g, "5", "cat-warrior", 3)
    sc.set_hand(g, E, ["rabbit-ambush"])
    sc.set_hand(g, M, [])
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("battle 5 eyrie")
    assert g.decision == "ambush" and g.to_play == E


@pytest.mark.parametrize("faction", FACTIONS)
def test_brutal_tactics_extra_hit_as_attacker_defender_scores(mid_game, faction):
    """Brutal Tactics ('in battle as attacker, may deal an extra hit, but the defender
    scores one point', Law 4.3.4, 4.3.5.I): after the roll the attacker may use it, once
    per battle; the extra hit is not capped by warriors."""
    g = mid_game()
    me = g.factions.index(faction)
    mine, theirs = ("cat-warrior", "bird-warrior") if me == M else ("bird-warrior",
                                                                    "cat-warrior")
    sc.put(g, "12", mine, 1)  # fox, not a crafting clearing below
    sc.put(g, "12", theirs, 3)
    sc.set_hand(g, 1 - me, [])
    sc.set_vp(g, 1 - me, 0)
    craft(g, faction, "brutal-tactics", ["fox", "fox"])
    if faction == "marquise":
        drive(g, lambda g: g.decision == "actions")
    else:
        sc.move_card(g, "bird-crossbow", sc.column_loc(g, E, "battle"))
        drive(g, lambda g: g.decision == "resolve_columns")
    sc.set_dice(g, 3, 0)
    g.apply(f"battle 12 {g.factions[1 - me]}")
    assert g.decision == "battle_effects" and g.to_play == me
    g.apply("use brutal-tactics")
    assert sc.count(g, "12", theirs) == 1  # one rolled hit (capped at 1 warrior) + 1 extra
    assert g.scores[1 - me] == 1
    assert g.play_area(me) == ["brutal-tactics"]  # not discarded


@pytest.mark.parametrize("faction", FACTIONS)
def test_brutal_tactics_is_not_offered_to_the_defender(mid_game, faction):
    """Brutal Tactics works only 'as attacker'."""
    g = mid_game()
    me = g.factions.index(faction)
    sc.move_card(g, "brutal-tactics", g.consts["LOC_PLAY"] + me)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, M, [])
    sc.set_hand(g, E, [])
    if faction == "marquise":
        eyrie_decree_battle(g)
        g.apply("battle 5 marquise")
    else:
        sc.goto(g, "marquise", "daylight", "actions")
        g.apply("battle 5 eyrie")
    assert g.decision != "battle_effects"


@pytest.mark.parametrize("faction", FACTIONS)
def test_sappers_extra_hit_as_defender_then_discarded(mid_game, faction):
    """Sappers ('in battle as defender, may discard this to deal an extra hit', Law
    4.3.4): crafted in its holder's Daylight; attacked in the other player's turn, it
    deals an extra hit after the roll and goes to the discard pile."""
    g = mid_game()
    me = g.factions.index(faction)
    craft(g, faction, "sappers", ["mouse"])
    assert g.play_area(me) == ["sappers"]
    sc.set_hand(g, M, [])
    sc.set_hand(g, E, [])
    sc.put(g, "12", "cat-warrior", 2)
    sc.put(g, "12", "bird-warrior", 2)
    sc.set_dice(g, 2, 0)
    if faction == "marquise":
        eyrie_decree_battle(g)
        g.apply("battle 12 marquise")
    else:
        sc.goto(g, "marquise", "daylight", "actions")
        g.apply("battle 12 eyrie")
    assert g.decision == "battle_effects" and g.to_play == me
    g.apply("use sappers")
    attacker_warrior = "bird-warrior" if me == M else "cat-warrior"
    assert sc.count(g, "12", attacker_warrior) == 1  # no rolled hit, one extra
    assert "sappers" in g.cards_at(LOC_DISCARD) and g.play_area(me) == []


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_armorers_ignore_every_rolled_hit_taken_then_discarded(mid_game, side):
    """Armorers ('in battle, may discard this to ignore all rolled hits taken', Law
    4.3.4, 4.3.5.III): on either side, after the roll; offered only when rolled hits
    come its holder's way; extra hits (defenseless, Commander ...) still count."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, E, [])
    craft(g, "marquise", "armorers", ["fox"])
    sc.set_dice(g, 2, 2)
    if side == "attacker":
        drive(g, lambda g: g.decision == "actions")
        g.apply("battle 5 eyrie")
    else:
        eyrie_decree_battle(g)
        g.apply("battle 5 marquise")
        g.apply("done")  # the ambush question (a bird ambush in hand, kept)
    assert g.decision == "battle_effects" and g.to_play == M
    assert set(g.legal()) == {"use armorers", "done"}
    g.apply("use armorers")
    assert sc.count(g, "5", "cat-warrior") == 3 and sc.count(g, "5", "bird-warrior") == 1
    assert "armorers" in g.cards_at(LOC_DISCARD)


def test_armorers_not_offered_without_rolled_hits_to_ignore(mid_game):
    """Armorers does nothing when the roll deals its holder no hits: not offered."""
    g = mid_game()
    sc.move_card(g, "armorers", g.consts["LOC_PLAY"] + M)
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    sc.set_hand(g, M, [])
    sc.set_hand(g, E, [])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 eyrie")
    assert g.decision != "battle_effects"
    assert sc.count(g, "5", "bird-warrior") == 1


def test_brutal_tactics_once_per_battle_again_in_the_next(mid_game):
    """A battle effect is once per battle: a second battle in the turn offers it again."""
    g = mid_game()
    sc.move_card(g, "brutal-tactics", g.consts["LOC_PLAY"] + M)
    for c in ("5", "12"):
        sc.put(g, c, "cat-warrior", 3)
        sc.put(g, c, "bird-warrior", 3)
    sc.set_hand(g, M, [])
    sc.set_hand(g, E, [])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 1, 0)
    g.apply("battle 5 eyrie")
    g.apply("use brutal-tactics")
    assert g.decision == "actions"
    sc.set_dice(g, 1, 0)
    g.apply("battle 12 eyrie")
    assert g.decision == "battle_effects" and "use brutal-tactics" in g.legal()


# ---------------------------------------------------------------- Birdsong: 1.4.1

@pytest.mark.parametrize("faction", FACTIONS)
def test_royal_claim_in_birdsong_scores_ruled_clearings_then_discarded(mid_game, faction):
    """Royal Claim ('in Birdsong, may discard this to score one point per clearing you
    rule'): crafted in Daylight (four '?' icons), used in the holder's next Birdsong."""
    g = mid_game()
    me = craft(g, faction, "royal-claim", ["mouse"] * 4)
    assert g.play_area(me) == ["royal-claim"]
    end_daylight(g)
    drive(g, lambda g: g.current == me and g.phase == "birdsong"
          and "use royal-claim" in g.legal())
    rules = sum(g.ruler(c) == faction for c in g.names["clearings"])
    before = g.scores[me]
    g.apply("use royal-claim")
    assert g.scores[me] == before + rules and rules >= 4
    assert "royal-claim" in g.cards_at(LOC_DISCARD) and g.play_area(me) == []


@pytest.mark.parametrize("faction", FACTIONS)
def test_stand_and_deliver_takes_a_random_card_the_victim_scores(mid_game, faction):
    """Stand and Deliver! ('in Birdsong, may take a random card from another player;
    that player scores one point'), once per turn, only from a player with cards."""
    g = mid_game()
    me = craft(g, faction, "stand-and-deliver", ["mouse"] * 3)
    other = 1 - me
    end_daylight(g)
    drive(g, lambda g: g.current == me and g.phase == "birdsong"
          and g.decision in ("phase_start", "phase_end"))
    sc.set_hand(g, other, ["anvil", "sappers"])
    vp, mine = g.scores[other], len(g.hand(me))
    assert f"use stand-and-deliver on {g.factions[other]}" in g.legal()
    g.apply(f"use stand-and-deliver on {g.factions[other]}")
    assert len(g.hand(other)) == 1 and len(g.hand(me)) == mine + 1
    assert set(g.hand(other) + g.hand(me)) >= {"anvil", "sappers"}
    assert g.scores[other] == vp + 1
    assert g.play_area(me) == ["stand-and-deliver"]
    assert not any(a.startswith("use stand-and-deliver") for a in g.legal())


def test_stand_and_deliver_needs_a_player_with_cards(mid_game):
    """Stand and Deliver! is not offered against an empty hand (the take must be
    possible; hand sizes are public)."""
    g = mid_game()
    sc.move_card(g, "stand-and-deliver", g.consts["LOC_PLAY"] + M)
    sc.set_hand(g, M, [])
    h = g.clone()
    sc.set_hand(g, E, [])
    sc.goto(g, "marquise", "birdsong")  # no sawmill: Birdsong ends at once
    assert g.phase == "daylight"  # no window: nobody to take from
    sc.set_hand(h, E, ["anvil"])
    sc.goto(h, "marquise", "birdsong")
    assert h.phase == "birdsong" and h.decision == "phase_end"
    assert set(h.legal()) == {"use stand-and-deliver on eyrie", "done"}


# The Eyrie holding Stand and Deliver! at its Birdsong, in more than one seat order.
EYRIE_ORDERS = [("marquise", "eyrie"), ("eyrie", "marquise"),
                ("alliance", "eyrie", "marquise")]


def eyrie_birdsong_with_stand_and_deliver(new_game, order, e_hand: list[str]):
    """A game past setup in ``order``: one roost, Stand and Deliver! in the Eyrie's play
    area, the Eyrie holding ``e_hand``, the Marquise a sword, anyone else nothing, an
    anvil on top of the deck; the Eyrie's turn begun through the turn flow."""
    g = new_game(factions=order)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    sc.put(g, "1", "roost", 1)
    e, m = g.factions.index("eyrie"), g.factions.index("marquise")
    for q in range(g.num_players):
        sc.set_hand(g, q, [])
    if "alliance" in order:
        pos.set_zone(g, g.factions.index("alliance"), "supporters", [])
    sc.set_hand(g, m, ["sword"])
    sc.set_hand(g, e, e_hand)
    sc.move_card(g, "stand-and-deliver", g.consts["LOC_PLAY"] + e)
    pos.set_deck_top(g, ["anvil"])
    pos.begin_turn(g, "eyrie")
    return g, e, m


@pytest.mark.parametrize("order", EYRIE_ORDERS, ids="-".join)
def test_stand_and_deliver_after_emergency_orders_before_the_decree(new_game, order):
    """Law 1.4.1, 1.4.2 with 7.4.1-7.4.2: an effect 'in Birdsong' may be used at any point
    of Birdsong that interrupts no action.  Declined at the start, Stand and Deliver! is
    still offered once Emergency Orders has drawn, at the Decree before its first card;
    the card taken can then go into the Decree."""
    g, e, m = eyrie_birdsong_with_stand_and_deliver(new_game, order, [])
    use = "use stand-and-deliver on marquise"
    assert g.decision == "phase_start" and set(g.legal()) == {use, "done"}
    g.apply("done")
    assert g.hand(e) == ["anvil"] and g.decision == "add_to_columns" and g.to_play == e
    assert use in g.legal() and "add anvil to move" in g.legal()
    g.apply(use)
    assert sorted(g.hand(e)) == ["anvil", "sword"] and g.hand(m) == []
    assert g.scores[m] == 1 and g.decision == "add_to_columns"
    assert "add sword to battle" in g.legal()
    assert not any(a.startswith("use ") for a in g.legal())  # once per turn


@pytest.mark.parametrize("order", EYRIE_ORDERS, ids="-".join)
def test_stand_and_deliver_not_between_two_decree_cards_but_after_them(new_game, order):
    """Law 1.4.2: adding one or two cards to the Decree (7.4.2) is one step, not to be
    interrupted between its cards (the reading in docs/design.md); the effect is offered
    before the first card and again once the step is over, in the window before
    Birdsong ends."""
    g, e, m = eyrie_birdsong_with_stand_and_deliver(new_game, order,
                                                    ["mouse-in-a-sack", "bake-sale"])
    use = "use stand-and-deliver on marquise"
    assert g.decision == "phase_start"  # the first step, Emergency Orders, offers nothing
    g.apply("done")
    assert g.decision == "add_to_columns" and use in g.legal()
    g.apply("add mouse-in-a-sack to move")
    assert g.decision == "add_to_columns" and g.to_play == e
    assert use not in g.legal() and "add bake-sale to recruit" in g.legal()
    g.apply("add bake-sale to recruit")
    assert g.phase == "birdsong" and g.decision == "phase_end"
    assert set(g.legal()) == {use, "done"}
    g.apply(use)
    assert g.hand(e) == ["sword"] and g.scores[m] == 1

@pytest.mark.parametrize("faction", FACTIONS)
def test_better_burrow_bank_at_start_of_birdsong_both_draw(mid_game, faction):
    """Better Burrow Bank ('at start of Birdsong, you and another player draw a card',
    Law 1.4.1; mandatory): crafted in Daylight; at the holder's next Birdsong, before
    anything else, both draw (one other player: nothing to ask)."""
    g = mid_game()
    me = craft(g, faction, "better-burrow-bank", ["rabbit", "rabbit"])
    other = 1 - me
    end_daylight(g)
    drive(g, lambda g: g.current == other)
    hand = len(g.hand(me))  # the other player's turn does not touch it
    drive(g, lambda g: g.current == me)
    assert g.used_effects(me) == ["better-burrow-bank"]
    assert len(g.hand(me)) == hand + 1


def test_better_burrow_bank_draws_before_the_turn_goes_on(mid_game):
    """The bank's draws happen at the very start of Birdsong: the hand sizes right after
    the previous turn ends show both cards."""
    g = mid_game()
    sc.move_card(g, "better-burrow-bank", g.consts["LOC_PLAY"] + M)
    sc.set_hand(g, M, ["anvil"])
    sc.set_hand(g, E, ["sappers"])
    sc.goto(g, "eyrie", "evening")  # the Eyrie draw 1 and end their turn
    drive(g, lambda g: g.current == M)
    assert len(g.hand(M)) == 2 and len(g.hand(E)) == 3


# ---------------------------------------------------------------- Daylight

@pytest.mark.parametrize("faction", FACTIONS)
def test_command_warren_battle_at_start_of_daylight(mid_game, faction):
    """Command Warren ('at start of Daylight, may initiate a battle', Law 1.4.1):
    crafted, then at the holder's next Daylight, before crafting, one battle."""
    g = mid_game()
    me = craft(g, faction, "command-warren", ["rabbit", "rabbit"])
    mine, theirs = ("cat-warrior", "bird-warrior") if me == M else ("bird-warrior",
                                                                    "cat-warrior")
    sc.put(g, "12", mine, 2)
    sc.put(g, "12", theirs, 2)
    end_daylight(g)
    drive(g, lambda g: g.current == me and g.phase == "daylight"
          and g.decision == "phase_start")
    assert set(g.legal()) >= {"use command-warren", "done"}
    g.apply("use command-warren")
    assert g.decision == "take_actions"
    assert f"battle 12 {g.factions[1 - me]}" in g.legal() and "done" in g.legal()
    sc.set_dice(g, 1, 1)
    g.apply(f"battle 12 {g.factions[1 - me]}")
    drive(g, lambda g: g.decision in ("craft", "actions", "resolve_columns"))
    assert sc.count(g, "12", mine) == 1 and sc.count(g, "12", theirs) == 1
    assert g.phase == "daylight" and g.current == me


@pytest.mark.parametrize("faction", FACTIONS)
def test_tax_collector_once_in_daylight_removes_own_warrior_to_draw(mid_game, faction):
    """Tax Collector ('once in Daylight, may remove one of your warriors to draw a
    card'): crafted, then used in the same Daylight; once per turn."""
    g = mid_game()
    me = g.factions.index(faction)
    mine = "cat-warrior" if me == M else "bird-warrior"
    sc.put(g, "12", mine, 2)
    craft(g, faction, "tax-collector", ["fox", "rabbit", "mouse"])
    assert "use tax-collector at 12" in g.legal()
    hand = len(g.hand(me))
    g.apply("use tax-collector at 12")
    assert sc.count(g, "12", mine) == 1 and len(g.hand(me)) == hand + 1
    assert not any(a.startswith("use tax-collector") for a in g.legal())


@pytest.mark.parametrize("looker", FACTIONS)
def test_codebreakers_shows_a_hand_to_the_looker_only(mid_game, looker):
    """Codebreakers ('once in Daylight, may look at another player's hand'; Law 1.2.1
    'show'): the looker's observation holds what it saw (a snapshot, dict and vector),
    the other seat's does not."""
    g = mid_game()
    me = g.factions.index(looker)
    other = 1 - me
    craft(g, looker, "codebreakers", ["mouse"])
    sc.set_hand(g, other, ["anvil", "sappers"])
    g.apply(f"use codebreakers on {g.factions[other]}")
    seen = g.observation(me)["seen"]
    assert sorted(seen[g.factions[other]]["cards"]) == ["anvil", "sappers"]
    assert g.observation(other)["seen"] == {}
    lay = g.observation_layout
    off, size = lay["seen"]
    vec_me, vec_other = g.observation_vector(me), g.observation_vector(other)
    k = g.consts["K"]
    assert sum(vec_me[off + k:off + 2 * k]) == 2  # relative seat 1: the other player
    assert sum(vec_other[off:off + size]) == 0
    assert not any(a.startswith("use codebreakers") for a in g.legal())  # once


# ---------------------------------------------------------------- Evening

@pytest.mark.parametrize("faction", FACTIONS)
def test_cobbler_one_move_at_start_of_evening(mid_game, faction):
    """Cobbler ('at start of Evening, may take a move', Law 1.4.1): crafted in Daylight,
    used as that turn's Evening begins: one move, then the Evening goes on."""
    g = mid_game()
    me = g.factions.index(faction)
    mine = "cat-warrior" if me == M else "bird-warrior"
    sc.put(g, "12", mine, 2)
    craft(g, faction, "cobbler", ["rabbit", "rabbit"])
    end_daylight(g)
    assert g.current == me and g.phase == "evening" and g.decision == "phase_start"
    assert set(g.legal()) == {"use cobbler", "done"}
    g.apply("use cobbler")
    assert g.decision == "take_actions"
    assert "move 12->7 x2" in g.legal()
    g.apply("move 12->7 x2")
    assert sc.count(g, "7", mine) == 2
    assert g.decision != "take_actions"
