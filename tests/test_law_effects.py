"""Effects, windows, removal events and the battle's six steps: the general machinery the
cards of the deck (and factions) run on.  Law 1.4.1 (start of a phase), 1.5.4 (remove
first, then trigger), 3.1.1 (ties), 4.3 (battle), 6.5.4 (build: pay, then place), 2.2.3
and 1.5.4 in setup.

Every test runs on the compiled and on the pure core.  Seats are Marquise 0 and Eyrie 1
unless a test says otherwise.  Autumn suits: fox 1 6 8 12, rabbit 3 4 5 10, mouse 2 7 9
11; corners 1 (opposite 3) and 2 (opposite 4).
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import position as pos
from rootlaw.runtime import scenario as sc

CAT, BIRD = 0, 1


def play_area(g, seat: int, *cards: str) -> None:
    for card in cards:
        sc.move_card(g, card, g.consts["LOC_PLAY"] + seat)


def answer(g, *actions: str) -> None:
    for a in actions:
        g.apply(a)


# ---------------------------------------------------------------- 1.4.1 start of a phase

@pytest.mark.parametrize("holder,other", [("eyrie", "marquise"), ("marquise", "eyrie")])
def test_start_of_birdsong_effect_comes_before_everything_else(mid_game, holder, other):
    """Law 1.4.1: 'at start of' a phase happens before everything else in the phase.
    Better Burrow Bank (you and another player draw, mandatory; one other player: no
    choice to ask) resolves as the holder's turn begins, reached by the previous turn's
    end: the Eyrie's Emergency Orders (draw if the hand is empty, Law 7.4.1) then finds
    a card in hand and draws none."""
    g = mid_game()
    hs, os_ = g.factions.index(holder), g.factions.index(other)
    play_area(g, hs, "better-burrow-bank")
    sc.set_hand(g, hs, [])
    sc.set_hand(g, os_, ["anvil"])
    sc.goto(g, other, "evening")  # the other player draws 1 and ends the turn
    while g.current != hs:
        g.apply("done" if "done" in g.legal() else g.legal_actions()[0])
    assert g.phase in ("birdsong", "daylight") and g.current == hs
    assert len(g.hand(hs)) == 1  # the bank's card, and no Emergency Orders draw
    assert len(g.hand(os_)) == 3  # anvil, the Evening draw, the bank's card
    assert g.used_effects(hs) == ["better-burrow-bank"]


def test_start_of_phase_window_offers_the_effect_and_done(mid_game):
    """Law 1.4.1 with Command Warren ('at start of Daylight, may initiate a battle'):
    the window opens as Daylight begins, before the craft step; 'done' declines it."""
    g = mid_game()
    play_area(g, CAT, "command-warren")
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.goto(g, "marquise", "birdsong")  # no sawmill: Birdsong ends at once
    assert g.phase == "daylight" and g.decision == "phase_start"
    assert set(g.legal()) == {"use command-warren", "done"}
    g.apply("done")
    assert g.decision == "actions"  # empty hand: the craft step asks nothing
    assert "use command-warren" not in g.legal()


def test_start_of_phase_effect_not_offered_when_it_can_do_nothing(mid_game):
    """Command Warren with no battle to start: no window (public facts: the board)."""
    g = mid_game()
    play_area(g, CAT, "command-warren")
    sc.put(g, "5", "cat-warrior", 2)
    sc.set_hand(g, CAT, [])
    sc.goto(g, "marquise", "birdsong")
    assert g.decision == "actions"


# ---------------------------------------------------------------- anytime in a phase

def test_anytime_effect_at_each_open_decision_and_once_per_turn(mid_game):
    """'Once in Daylight' (Tax Collector): offered between actions, at most once a turn;
    a new turn offers it again."""
    g = mid_game()
    play_area(g, CAT, "tax-collector")
    sc.put(g, "5", "cat-warrior", 2)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.goto(g, "marquise", "daylight", "actions")
    assert "use tax-collector at 5" in g.legal()
    g.apply("move 5->1 x1")
    assert g.decision == "march" and "use tax-collector at 5" not in g.legal()  # mid-action
    g.apply("done")
    assert {"use tax-collector at 5", "use tax-collector at 1"} <= set(g.legal())
    g.apply("use tax-collector at 1")
    assert sc.count(g, "1", "cat-warrior") == 0 and len(g.hand(CAT)) == 1
    assert not any(a.startswith("use ") for a in g.legal())
    assert g.used_effects(CAT) == ["tax-collector"]


def test_anytime_effect_offered_as_the_phase_ends(mid_game):
    """An anytime Birdsong effect (Royal Claim) with no decision in the Marquise's
    Birdsong: a last window before Birdsong ends."""
    g = mid_game()
    play_area(g, CAT, "royal-claim")
    sc.put(g, "5", "cat-warrior", 1)
    sc.set_hand(g, CAT, [])
    sc.goto(g, "marquise", "birdsong")
    assert g.phase == "birdsong" and g.decision in ("phase_start", "phase_end")
    assert set(g.legal()) == {"use royal-claim", "done"}


# ---------------------------------------------------------------- 4.3 the six steps

def test_battle_steps_in_order_ambush_then_effects_then_roll(mid_game):
    """Law 4.3.1-4.3.4: the ambush question comes first; the after-roll effects follow
    the roll (the roll is public), the attacker asked before the defender."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    play_area(g, CAT, "brutal-tactics")
    play_area(g, BIRD, "sappers")
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, ["anvil"])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 eyrie")
    assert g.decision == "ambush" and g.factions[g.to_play] == "eyrie"
    g.apply("done")
    assert g.decision == "battle_effects" and g.to_play == CAT
    assert g.battle()["rolled"] == {"attacker": 2, "defender": 1}
    assert set(g.legal()) == {"use brutal-tactics", "done"}
    g.apply("done")
    assert g.decision == "battle_effects" and g.to_play == BIRD
    assert set(g.legal()) == {"use sappers", "done"}
    g.apply("done")
    assert sc.count(g, "5", "bird-warrior") == 1 and sc.count(g, "5", "cat-warrior") == 2


def eyrie_battle_decree(g, card="bird-crossbow"):
    """The Eyrie's Decree is one battle card (leader builder), ready to resolve."""
    sc.set_role(g, BIRD, "builder")
    lo = g.consts["LOC_COLUMN"] + BIRD * g.consts["L"]
    for i in range(g.consts["N"]):
        if lo <= g.state[g.S["CARD_LOC"] + i] < lo + g.consts["L"]:
            g.state[g.S["CARD_LOC"] + i] = 1
    sc.move_card(g, card, sc.column_loc(g, BIRD, "battle"))
    sc.goto(g, "eyrie", "daylight", "resolve_columns")


def battle_from(g, attacker: str) -> None:
    """Let the attacker (whose turn it is) start its battle in clearing 5."""
    if attacker == "marquise":
        sc.goto(g, "marquise", "daylight", "actions")
    else:
        eyrie_battle_decree(g)


@pytest.mark.parametrize("attacker", ["marquise", "eyrie"])
def test_both_sides_hits_land_before_a_win_then_the_tie_rule(mid_game, attacker):
    """Law 4.3.6 and 3.1.1 (issue deviation #2): both sides' hits land in step 6 before
    anyone can win.  Each side deals two hits (a rolled one, and an extra one: Brutal
    Tactics for the attacker, Sappers for the defender, Law 4.3.5.I), removing the
    other's warrior and then its building or token: both reach 30 VP at once, and the
    tie goes to the current player, the attacker (Law 3.1.1).  Before, the game ended
    as soon as the attacker's hits had scored, the defender's never dealt."""
    a = 0 if attacker == "marquise" else 1
    d = 1 - a
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 1)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "wood", 1)
    sc.put(g, "5", "roost", 1)
    play_area(g, a, "brutal-tactics")
    play_area(g, d, "sappers")
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.set_vp(g, a, 29)
    sc.set_vp(g, d, 28)  # Brutal Tactics gives the defender one (Law: the card)
    battle_from(g, attacker)
    sc.set_dice(g, 1, 1)
    g.apply(f"battle 5 {g.factions[d]}")
    answer(g, "use brutal-tactics", "use sappers")  # the window closes once used up
    assert g.is_over
    assert g.scores == [30, 30]
    assert sc.count(g, "5", "wood") == 0 and sc.count(g, "5", "roost") == 0
    assert g.winner_faction == attacker


@pytest.mark.parametrize("order", [("marquise", "eyrie"), ("eyrie", "marquise")])
def test_a_win_in_step_6_ends_the_game_before_field_hospitals(new_game, order):
    """Law 3.1 ("immediately wins") with 4.3.6 and 6.2.3: the Marquise at 29 removes the
    Eyrie's warrior and roost (her 30th VP) while the Eyrie's hit removes one of her
    warriors.  Both sides' hits land first (the tie rule needs them, Law 3.1.1), then the
    game is over: field hospitals, a reaction to the removal, are not asked."""
    g = new_game(factions=list(order), seed=1)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    sc.clear_board(g)
    cat, bird = g.factions.index("marquise"), g.factions.index("eyrie")
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "bird-warrior", 1)
    sc.put(g, "5", "roost", 1)
    sc.set_hand(g, cat, ["rabbit-root-tea"])  # matches rabbit clearing 5
    sc.set_hand(g, bird, [])
    sc.set_vp(g, cat, 29)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 eyrie")
    assert g.is_over and g.winner_faction == "marquise" and g.scores[cat] == 30
    assert sc.count(g, "5", "roost") == 0 and sc.count(g, "5", "cat-warrior") == 1
    assert sc.count(g, "1", "cat-warrior") == 0 and g.hand(cat) == ["rabbit-root-tea"]
    assert g.legal() == {}


# ---------------------------------------------------------------- 1.5.4 removal events

def test_field_hospitals_answer_a_removal_outside_battle(mid_game):
    """Law 6.2.3 'whenever': a Tax Collector removal (the Marquise's own warrior) is a
    removal like any other; field hospitals answer it before the card's draw (the
    program goes on once the reaction is done)."""
    g = mid_game()
    play_area(g, CAT, "tax-collector")
    sc.put(g, "1", "keep", 1)
    sc.put(g, "5", "cat-warrior", 1)
    sc.set_hand(g, CAT, ["rabbit-root-tea"])  # matches rabbit clearing 5
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("use tax-collector at 5")
    assert g.decision == "rescue" and set(g.legal()) == {"spend rabbit-root-tea", "done"}
    assert len(g.hand(CAT)) == 1  # the card's draw waits for the reaction
    g.apply("spend rabbit-root-tea")
    assert sc.count(g, "1", "cat-warrior") == 1 and sc.count(g, "5", "cat-warrior") == 0
    assert len(g.hand(CAT)) == 1 and g.decision == "actions"


def test_a_favor_is_one_removal_event_answered_clearing_by_clearing(mid_game):
    """Favor of the Foxes (crafted by the Eyrie) removes every enemy piece in every fox
    clearing (the FAQ: all of them) at once: one removal event (Law 1.5.4), so every
    piece is gone and every enemy building and token scored (Law 3.2.1) before anything
    triggers.  Field hospitals then answer once for each clearing where Marquise warriors
    fell, each for that clearing's warriors (Law 6.2.3: 'from a single clearing'), in
    clearing order."""
    g = mid_game()
    for c in ("1", "8", "12"):
        sc.put(g, c, "roost", 1)  # three fox crafting pieces
    sc.put(g, "6", "cat-warrior", 2)
    sc.put(g, "8", "cat-warrior", 1)
    sc.put(g, "8", "sawmill", 1)
    sc.put(g, "12", "wood", 1)
    sc.put(g, "4", "keep", 1)
    sc.set_hand(g, CAT, ["fox-root-tea", "foxfolk-steel"])
    sc.set_hand(g, BIRD, ["favor-of-the-foxes"])
    sc.set_vp(g, BIRD, 0)
    sc.set_role(g, BIRD, "builder")
    sc.goto(g, "eyrie", "daylight", "craft")
    g.apply("craft favor-of-the-foxes")
    assert g.decision == "rescue" and g.to_play == CAT
    for c in ("6", "8", "12"):  # the whole event is over before the first rescue
        assert all(not p.startswith(("cat", "saw", "wood")) for p in g.piece_counts()[c])
    assert g.scores[BIRD] == 2  # the sawmill and the wood
    g.apply("spend fox-root-tea")  # the two warriors of clearing 6
    assert sc.count(g, "4", "cat-warrior") == 2
    assert g.decision == "rescue" and g.to_play == CAT
    g.apply("done")  # the one of clearing 8 stays removed
    assert sc.count(g, "4", "cat-warrior") == 2 and sc.count(g, "8", "cat-warrior") == 0
    assert g.hand(CAT) == ["foxfolk-steel"]
    assert "favor-of-the-foxes" in g.cards_at(1) and g.play_area(BIRD) == []


# ---------------------------------------------------------------- triggers

def test_trigger_on_pieces_removed_by_an_enemy(green_game):
    """A pieces_removed trigger (test-green's flag-alarm: when an enemy removes its flag,
    it draws a card) runs after the removal event, Law 1.5.4; the remover's own turn
    goes on afterwards."""
    g = green_game()
    G = g.factions.index("test-green")
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "flag", 1)
    sc.set_hand(g, G, [])
    sc.set_hand(g, CAT, [])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 test-green")  # defenseless: two hits; the flag goes
    assert sc.count(g, "5", "flag") == 0
    assert len(g.hand(G)) == 1 and g.decision == "actions"


@pytest.mark.parametrize("seats", [("marquise", "test-beacons"), ("test-beacons", "marquise")])
def test_three_triggers_of_one_removal_are_ordered_one_choice_at_a_time(green_game, seats):
    """Law 4.3.6 (step 6): the side taking hits orders every effect its removed pieces set
    off.  test-beacons has three triggers on its flag (draw 1, score 1, score 2): it is
    asked which goes first, and once that one has resolved, asked again between the
    other two; the last needs no question."""
    g = green_game(factions=seats)
    B, M = g.factions.index("test-beacons"), g.factions.index("marquise")
    sc.put(g, "5", "cat-warrior", 2)
    sc.put(g, "5", "flag", 1)
    sc.set_hand(g, B, [])
    sc.set_hand(g, M, [])
    sc.set_vp(g, B, 0)
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 0)
    g.apply("battle 5 test-beacons")  # defenseless: the flag goes
    assert sc.count(g, "5", "flag") == 0
    assert g.decision == "react_order" and g.to_play == B
    assert set(g.legal()) == {"first flag-alarm", "first flag-bounty", "first flag-muster"}
    g.apply("first flag-muster")
    assert g.scores[B] == 2 and len(g.hand(B)) == 0  # only the muster has resolved
    assert g.decision == "react_order" and g.to_play == B
    assert set(g.legal()) == {"first flag-alarm", "first flag-bounty"}
    g.apply("first flag-alarm")
    # The alarm, then the bounty without a question; the Marquise's turn goes on.
    assert len(g.hand(B)) == 1 and g.scores[B] == 3
    assert g.decision == "actions" and g.to_play == M


def test_trigger_on_warriors_moved_in_runs_before_the_next_move(green_game):
    """A warriors_moved_in trigger carried out by the mover (test-green's flag-toll: who
    moves warriors into a clearing with its flag loses 1 VP) resolves right after the
    move, before the march's second move; the owner's own moves set nothing off."""
    g = green_game()
    G = g.factions.index("test-green")
    sc.put(g, "1", "cat-warrior", 3)
    sc.put(g, "5", "flag", 1)
    sc.put(g, "10", "flag", 1)
    sc.set_hand(g, CAT, [])
    sc.set_vp(g, CAT, 5)
    sc.goto(g, "marquise", "daylight", "actions")
    g.apply("move 1->5 x1")
    assert g.scores[CAT] == 4 and g.decision == "march"
    g.apply("move 1->10 x1")
    assert g.scores[CAT] == 3
    sc.put(g, "2", "green-warrior", 2)
    sc.set_vp(g, G, 5)
    sc.goto(g, "test-green", "daylight", "actions")
    g.apply("move 2->5 x1")
    assert g.scores[G] == 5


# ---------------------------------------------------------------- 4.3.2, 4.3.5

def test_before_roll_effects_come_before_the_dice(green_game):
    """Law 4.3.2: 'before rolling' effects are used in step 2, before the dice are rolled
    (step 3); an extra hit is not capped by the attacker's warriors (4.3.5.I)."""
    g = green_game()
    sc.put(g, "5", "green-warrior", 1)
    sc.put(g, "5", "cat-warrior", 3)
    sc.set_hand(g, CAT, [])
    G = g.factions.index("test-green")
    sc.set_hand(g, G, [])
    sc.goto(g, "test-green", "daylight", "actions")
    sc.set_dice(g, 3, 0)
    g.apply("battle 5 marquise")
    assert g.decision == "battle_effects" and g.to_play == G
    assert g.battle()["rolled"] == {"attacker": 0, "defender": 0}
    assert pos.dice_queue(g) == [(3, 0)]  # not rolled yet
    assert set(g.legal()) == {"use green-drums", "done"}
    g.apply("use green-drums")
    assert sc.count(g, "5", "cat-warrior") == 1  # 1 rolled (capped at 1 warrior) + 1 extra


def test_ignored_rolled_hits_leave_extra_hits_standing(mid_game):
    """Law 4.3.5.II-III: Armorers ignores the rolled hits its holder takes; the extra
    hit against a defenseless defender still counts, and the defender chooses which of
    its buildings and tokens it removes (4.3.6)."""
    g = mid_game()
    sc.put(g, "5", "bird-warrior", 2)
    sc.put(g, "5", "sawmill", 1)
    sc.put(g, "5", "workshop", 1)
    sc.put(g, "5", "wood", 1)
    sc.move_card(g, "armorers", g.consts["LOC_PLAY"] + CAT)
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.set_vp(g, BIRD, 0)
    eyrie_battle_decree(g)
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 marquise")
    assert g.decision == "battle_effects" and g.to_play == CAT
    g.apply("use armorers")
    assert g.decision == "remove" and g.to_play == CAT  # one hit: the defender picks
    g.apply("remove sawmill")
    assert sc.count(g, "5", "sawmill") == 0
    assert sc.count(g, "5", "workshop") == 1 and sc.count(g, "5", "wood") == 1
    assert g.scores[BIRD] == 1


def test_a_position_can_begin_at_the_very_start_of_a_turn(mid_game):
    """The core's begin_turn (for scenarios): the turn starts as after the previous
    one's end, so 'at start of Birdsong' effects resolve (Law 1.4.1): the bank draws
    for both before the Eyrie's Emergency Orders look at an empty hand."""
    g = mid_game()
    play_area(g, BIRD, "better-burrow-bank")
    sc.set_hand(g, BIRD, [])
    sc.set_hand(g, CAT, [])
    g._core.begin_turn(BIRD)
    assert g.current == BIRD and g.used_effects(BIRD) == ["better-burrow-bank"]
    assert len(g.hand(BIRD)) == 1 and len(g.hand(CAT)) == 1


@pytest.mark.parametrize("seat", [CAT, BIRD])
def test_the_observation_shows_the_battle_and_used_effects_to_every_seat(mid_game, seat):
    """Public facts in the vector, from each seat's side: the battle in progress (sides
    as relative seats, the clearing, rolled and extra hits, ignored hits) and the effects
    used; none of it once the battle is over."""
    g = mid_game()
    sc.put(g, "5", "cat-warrior", 3)
    sc.put(g, "5", "bird-warrior", 3)
    play_area(g, CAT, "brutal-tactics", "armorers")
    sc.set_hand(g, CAT, [])
    sc.set_hand(g, BIRD, [])
    sc.goto(g, "marquise", "daylight", "actions")
    sc.set_dice(g, 2, 1)
    g.apply("battle 5 eyrie")
    g.apply("use brutal-tactics")  # the window stays: Armorers may still be used

    def field(name):
        off, size = g.observation_layout[name]
        return list(g.observation_vector(seat)[off:off + size])

    def used():
        u = g.consts["U"]
        flags = field("used_effects")[me * u:(me + 1) * u]
        return {g.names["effects"][i] for i in range(u) if flags[i]}

    me = (CAT - seat) % 2  # the Marquise as seen from the observer
    assert g.decision == "battle_effects"
    assert field("battle_attacker") == [me] and field("battle_defender") == [1 - me]
    assert field("battle_clearing") == [g.names["clearings"].index("5")]
    assert field("battle_rolled_by_attacker") == [2] and field("battle_rolled_by_defender") == [1]
    assert field("battle_extra_by_attacker") == [1] and field("battle_extra_by_defender") == [0]
    assert field("battle_attacker_ignores_rolled") == [0]
    assert field("battle_stage") != [0]
    assert used() == {"brutal-tactics"}
    g.apply("use armorers")  # the battle then runs to its end
    assert g.battle() is None
    assert field("battle_stage") == [0] and field("battle_attacker") == [-1]
    assert field("battle_rolled_by_attacker") == [0]
    assert used() == {"brutal-tactics", "armorers"}
