"""Offers another player takes up on its own turn, on the offerer's terms (models.Offer),
with the first: the Corvids' Exposure (Law 13.2.4: "Any number of times on their turn,
an enemy with faction pieces in a clearing with a facedown plot token may show the
Corvids a matching card to guess the type of plot token in that clearing. If incorrect,
the Corvids say "no," and the enemy gives that card to the Corvids. If correct, the enemy
removes the plot token (scoring a victory point); if this removes a Raid token, it does
not place warriors").

The offerer is tests/data/packs/face-down-plots (Test Schemers, whose plots lie face
down with faces only they know); its offer 'exposure' runs the library program
'expose': a face named and a clearing ('expose bomb 5'), then a card of the taker's hand
matching the clearing ('card bake-sale'), shown to the schemers, then the plot removed as
the token (a right guess) or the card given to the schemers (a wrong one).  The guess
comes first: what waits between the two questions is public (the guess was said aloud),
never the card, which the others may not know.  Autumn: clearing
5 is a rabbit clearing, 1 a fox one.

Hidden information is a security boundary: whether the taker is asked reads only what
it may know, and the answer, told aloud, is the honest end of a pair of twins."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import past_setup, play_alike

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import invariant_violations
from rootlaw.runtime.events import describe, public_fingerprint, redact
from rootlaw.runtime.hidden import _shows_cards, check_hidden, play_twins
from rootlaw.spec import resolve

PACK = Path(__file__).resolve().parent / "data" / "packs" / "face-down-plots"
ME = "test-schemers"
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])
ORDERS = pytest.mark.parametrize(
    "order", [("marquise", "test-schemers"), ("test-schemers", "marquise"),
              ("eyrie", "test-schemers", "marquise")], ids=["ms", "sm", "esm"])


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def _table(bundle, order, pure, *, face="bomb", hand=("bake-sale", "anvil"),
           cats=None, phase=("daylight", "actions")):
    """The schemers' plot of ``face`` face down in 5 (and a schemer in 1), the cats'
    warriors (clearing -> how many: three in 5 unless told), the cats' hand; the game at
    the cats' ``phase`` step, reached through the turn flow."""
    g = past_setup(order, bundle=bundle, pure=pure, clear=True, empty_hands=True)
    pos.put(g, "1", "schemer", 1)
    pos.put(g, "5", "schemer", 1)
    pos.lay_face_down(g, "5", face)
    for c, n in ({"5": 3} if cats is None else cats).items():
        pos.put(g, c, "cat-warrior", n)
    cat = pos.seat_of(g, "marquise")
    pos.set_hand(g, cat, list(hand))
    pos.goto(g, "marquise", *phase)
    assert g.to_play == cat and g.compiled is not pure
    return g, cat, pos.seat_of(g, ME)


FACES = ("bomb", "extortion", "raid", "snare")


def _exposes(g) -> list[str]:
    return sorted(a for a in g.legal() if a.startswith("expose "))


def _in(clearing: str) -> list[str]:
    """Every guess in a clearing, as _exposes lists them."""
    return sorted(f"expose {f} {clearing}" for f in FACES)


def _cards(g) -> list[str]:
    return sorted(a for a in g.legal() if a.startswith("card "))


def _play(g, text: str) -> None:
    g.apply(g.parse(text))


def _ok(g) -> None:
    assert not list(invariant_violations(g))


# ------------------------------------------------------------------ who may, with what


@CORES
@ORDERS
def test_an_enemy_with_pieces_there_may_expose_with_a_matching_card(bundle, order, pure):
    """13.2.4: a clearing with a face-down plot and the taker's faction pieces, a face
    named, then a card of its hand matching the clearing (a bird matches any, Law
    2.1.1); no other card, and only where its pieces are (the plot lies in 5)."""
    g, cat, me = _table(bundle, order, pure,
                        hand=("bake-sale", "anvil", "bird-ambush", "sword"))
    assert _exposes(g) == _in("5")
    _play(g, "expose bomb 5")
    assert g.to_play == cat and g.decision == "choice"
    assert _cards(g) == ["card bake-sale", "card bird-ambush"] and "done" not in g.legal()
    # with no matching card, no guess is offered
    g, cat, me = _table(bundle, order, pure, hand=("anvil", "sword"))
    assert _exposes(g) == []


@CORES
def test_any_face_may_be_guessed_even_one_all_face_up(bundle, pure):
    """"Guess the type of plot token": both extortions face up elsewhere, the plot in 5
    cannot hide one, yet the guess is the taker's to make (and can only be wrong)."""
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), pure, face="raid")
    pos.put(g, "9", "extortion", 1)
    pos.put(g, "12", "extortion", 1)
    pos.goto(g, "marquise", "daylight", "actions")
    assert _exposes(g) == _in("5")
    _play(g, "expose extortion 5")
    _play(g, "card bake-sale")
    assert g.hand(me) == ["bake-sale"] and pos.faces_down(g, me) == {"5": "raid"}


@CORES
@ORDERS
def test_no_exposure_without_own_pieces_there_or_for_the_offerer(bundle, order, pure):
    """An enemy *with faction pieces in* the clearing: the cats in 9 only may not; the
    schemers never expose their own plots (the offer is to the others)."""
    g, cat, me = _table(bundle, order, pure, cats={"9": 2})
    assert _exposes(g) == []
    g, cat, me = _table(bundle, order, pure)
    pos.set_hand(g, me, ["rabbit-ambush"])
    pos.goto(g, ME, "daylight", "actions")
    assert g.to_play == me and _exposes(g) == []


# ------------------------------------------------------------------ a wrong guess


@CORES
@ORDERS
def test_a_wrong_guess_gives_the_card_to_the_offerer(bundle, order, pure):
    """13.2.4: "If incorrect, the Corvids say 'no,' and the enemy gives that card to the
    Corvids."  The plot stays face down, its face unchanged; Exposure is no action (the
    cats' three Daylight actions are all still there)."""
    g, cat, me = _table(bundle, order, pure, hand=("bake-sale", "anvil"))
    left = g.state[g.S["ACTIONS_LEFT"]]
    g.record_events()
    _play(g, "expose snare 5")
    assert g.to_play == cat and g.decision == "choice"
    assert sorted(g.legal()) == ["card bake-sale"]
    _play(g, "card bake-sale")
    _ok(g)
    assert g.hand(cat) == ["anvil"] and g.hand(me) == ["bake-sale"]
    assert pos.faces_down(g, me) == {"5": "bomb"} and pos.count(g, "5", "plot") == 1
    assert g.decision == "actions" and g.to_play == cat
    assert g.state[g.S["ACTIONS_LEFT"]] == left
    answered = [e for e in g.take_events() if e.kind == "answered"]
    assert [(e.a, e.d) for e in answered] == [(cat, 0)]
    assert describe(g, answered[0]).endswith("guesses snare in clearing 5: wrong")


@CORES
def test_any_number_of_times_one_card_each(bundle, pure):
    """"Any number of times on their turn": a second guess with another card; each
    wrong guess costs its card, so the uses end with the hand's matching cards."""
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), pure,
                        hand=("bake-sale", "rabbit-ambush", "anvil"))
    _play(g, "expose raid 5")
    _play(g, "card bake-sale")
    assert _exposes(g) == _in("5")  # rabbit-ambush matches too
    _play(g, "expose snare 5")
    assert _cards(g) == ["card rabbit-ambush"]
    _play(g, "card rabbit-ambush")
    assert _exposes(g) == [] and g.hand(cat) == ["anvil"]
    assert sorted(g.hand(me)) == ["bake-sale", "rabbit-ambush"]


# ------------------------------------------------------------------ a right guess


@CORES
@ORDERS
def test_a_right_guess_removes_the_plot_and_scores(bundle, order, pure):
    """13.2.4: "If correct, the enemy removes the plot token (scoring a victory point)"
    (Law 3.2.1): the token back in the schemers' supply, its face with it; the card
    stays in the cats' hand (shown, not given)."""
    g, cat, me = _table(bundle, order, pure, face="extortion")
    vp = g.scores[cat]
    _play(g, "expose extortion 5")
    _play(g, "card bake-sale")
    _ok(g)
    assert pos.count(g, "5", "plot") == 0 and pos.faces_down(g, me) == {}
    assert pos.supply(g, "plot") == 8 and pos.supply(g, "extortion") == 2
    assert g.scores[cat] == vp + 1
    assert sorted(g.hand(cat)) == ["anvil", "bake-sale"] and g.hand(me) == []
    assert _exposes(g) == []  # no plot left there


@CORES
@ORDERS
def test_a_raid_exposed_places_no_warriors(bundle, order, pure):
    """13.2.4: "if this removes a Raid token, it does not place warriors" (13.7's raid
    otherwise places a warrior in each clearing adjacent to it, face up or down: the
    Marquise's battle removing it does, tests/test_face_down.py)."""
    g, cat, me = _table(bundle, order, pure, face="raid")
    schemers = pos.supply(g, "schemer")
    _play(g, "expose raid 5")
    _play(g, "card bake-sale")
    _ok(g)
    assert pos.count(g, "5", "plot") == 0 and pos.supply(g, "schemer") == schemers
    assert g.decision == "actions" and g.to_play == cat  # nobody else was asked


# ------------------------------------------------------------------ when it is offered


@CORES
def test_offered_as_birdsong_ends_whatever_the_hand_holds(bundle, pure):
    """At the decisions where the taker's anytime effects are (Law 1.4.1), not once its
    last step has begun (1.4.3).  The Marquise's Birdsong asks nothing of its own: a
    window opens as it ends because a plot lies where cats are and the hand is not
    empty (public facts), whether or not a card matches; its options then read the
    hand, the taker's own to know."""
    for hand, want in ((("bake-sale",), _in("5")), (("anvil",), [])):
        g, cat, me = _table(bundle, ("test-schemers", "marquise"), pure, hand=hand,
                            phase=("birdsong", None))
        assert g.to_play == cat and g.decision == "phase_end", g.decision
        assert _exposes(g) == want and "done" in g.legal()
    # no window with an empty hand, or with no cats at a plot
    for hand, cats in (((), {"5": 3}), (("bake-sale",), {"9": 3})):
        g, cat, me = _table(bundle, ("test-schemers", "marquise"), pure, hand=hand,
                            cats=cats, phase=("birdsong", None))
        assert not (g.to_play == cat and g.decision == "phase_end")


@CORES
@pytest.mark.parametrize("order", [("marquise", "test-schemers"),
                                   ("test-schemers", "eyrie", "marquise")], ids=["ms", "sem"])
def test_offered_as_evening_starts_not_once_its_last_step_has_begun(bundle, order, pure):
    """Law 1.4.3 and 13.2.4: "You cannot use Exposure once you have begun the last step
    of your turn": as the cats' Evening starts (a window, on public facts) a guess is
    offered; at the discard, its last step, it is not."""
    g, cat, me = _table(bundle, order, pure,
                        hand=("bake-sale", "anvil", "sword", "foxfolk-steel",
                              "investments", "mouse-in-a-sack"))
    _play(g, "done")  # Daylight's actions
    assert g.decision == "phase_end" and _exposes(g) == _in("5")
    _play(g, "done")
    assert g.phase == "evening" and g.decision == "phase_start" and g.to_play == cat
    assert _exposes(g) == _in("5")
    _play(g, "expose raid 5")
    _play(g, "card bake-sale")  # wrong: the card is the schemers'
    assert g.decision == "phase_start" and _exposes(g) == []  # no matching card left
    _play(g, "done")
    assert g.decision == "discard_down_to" and g.to_play == cat
    assert _exposes(g) == [] and len(g.hand(cat)) == 6


def test_whether_the_taker_is_asked_reads_no_card(bundle):
    """Twins whose hands differ only in whether a card matches are asked alike (the
    window is the same; only the options the hand allows differ, seen by its owner
    alone)."""
    seen = []
    for hand in (("bake-sale",), ("anvil",)):
        g, cat, me = _table(bundle, ("test-schemers", "marquise"), True, hand=hand,
                            phase=("birdsong", None))
        seen.append((g.to_play, g.decision, sorted(a for a in g.legal()
                                                   if not a.startswith("expose "))))
    assert seen[0] == seen[1]


# ------------------------------------------------------------------ who sees what


@CORES
def test_the_shown_card_is_seen_by_the_offerer_alone(bundle, pure):
    """"Show the Corvids a matching card": the third player reads 'a card', the
    schemers the card; the guess ('expose bomb 5') and its answer are everyone's."""
    g, cat, me = _table(bundle, ("eyrie", "test-schemers", "marquise"), pure)
    bird = pos.seat_of(g, "eyrie")
    g.record_events()
    _play(g, "expose bomb 5")
    assert redact(g, "expose bomb 5", g.take_events(), bird) == "expose bomb 5"
    _play(g, "card bake-sale")
    events = g.take_events()
    assert redact(g, "card bake-sale", events, bird) == "a card"
    assert redact(g, "card bake-sale", events, me) == "card bake-sale"
    assert redact(g, "card bake-sale", events, cat) == "card bake-sale"
    shown = [describe(g, e, me) for e in events if e.kind == "card"]
    assert shown == ["marquise shows bake-sale to the test-schemers"]
    assert [describe(g, e, bird) for e in events if e.kind == "card"] == \
        ["marquise shows a card to the test-schemers"]
    # (the knowledge tables: the schemers know where that card is now, the birds not)
    card = next(e.a for e in events if e.kind == "card")
    assert g.knowledge(me)[card] == 0 and g.knowledge(bird)[card] != 0
    # the JSON log's record: shown by the cats, to the schemers, seen by those two alone
    from rootlaw.runtime.events import record
    rec = record(g, next(e for e in events if e.kind == "card"))
    assert (rec["by"], rec["shown_to"]) == ("marquise", ME)
    assert sorted(rec["seen_by"]) == sorted(["marquise", ME])


def test_an_answer_ends_twins_honestly(bundle):
    """Twins differing only in the plot's face (bomb, snare) answer the same guess
    differently: the first difference the Marquise sees is the answer, told aloud."""
    fps = []
    for face in ("bomb", "snare"):
        g, cat, me = _table(bundle, ("marquise", "test-schemers"), True, face=face)
        _play(g, "expose bomb 5")
        g.record_events()
        _play(g, "card bake-sale")
        fps.append(public_fingerprint(g, g.take_events(), cat))
    assert fps[0] != fps[1] and _shows_cards(*fps)


def test_twins_differing_in_a_face_stay_one_game_until_a_guess(bundle):
    """Before any guess the Marquise's view of the twins is the same, exposures and
    all; the pair ends honestly (an answer, a card) or runs out, never leaks."""
    a, cat, _ = _table(bundle, ("marquise", "test-schemers"), True, face="bomb")
    b, _, _ = _table(bundle, ("marquise", "test-schemers"), True, face="raid")
    assert list(a.observation_vector(cat)) == list(b.observation_vector(cat))
    assert sorted(a.legal()) == sorted(b.legal())
    for seed in range(6):
        end, detail, _, _ = play_twins(a.clone(), b.clone(), cat, horizon=60,
                                       rng=random.Random(seed), future=False)
        assert end != "leak", detail


# ------------------------------------------------------------------ what a guess tells


def _dealt_at(g, seat: int, me: int, clearing: str, seeds=range(120)) -> set[str]:
    """The faces samples for ``seat`` deal the schemers' plot in ``clearing``."""
    return {g.determinize(seat, s).faces_down(me)[clearing] for s in seeds}


@CORES
@pytest.mark.parametrize("order", [("marquise", "test-schemers"),
                                   ("eyrie", "test-schemers", "marquise")], ids=["ms", "esm"])
def test_a_wrong_guess_rules_its_face_out_of_every_sample(bundle, order, pure):
    """13.2.4: "If incorrect, the Corvids say 'no'" aloud: every seat now knows the plot
    in 5 is no snare.  A sample dealt for any other seat (the guesser, a third player)
    never deals a snare there, while the plot in 9, unguessed, may still be one; the
    plotter's own sample keeps the truth; the others see what was ruled out."""
    g, cat, me = _table(bundle, order, pure, face="bomb",
                        hand=("bake-sale", "rabbit-root-tea"))
    pos.put(g, "9", "schemer", 1)
    pos.lay_face_down(g, "9", "raid")
    others = [q for q in range(g.num_players) if q != me]
    assert all("snare" in _dealt_at(g, q, me, "5") for q in others)
    _play(g, "expose snare 5")
    _play(g, "card bake-sale")
    _ok(g)
    for q in others:
        assert _dealt_at(g, q, me, "5") == {"bomb", "extortion", "raid"}
        assert "snare" in _dealt_at(g, q, me, "9")
        t = g.determinize(q, 3)
        _ok(t)
        assert list(t.observation_vector(q)) == list(g.observation_vector(q))
    assert _dealt_at(g, me, me, "5", range(5)) == {"bomb"}
    # a second wrong guess there narrows it again
    _play(g, "expose extortion 5")
    _play(g, "card rabbit-root-tea")
    assert all(_dealt_at(g, q, me, "5") == {"bomb", "raid"} for q in others)


@CORES
@pytest.mark.parametrize("end", ["flip", "battle"])
def test_a_mark_goes_when_its_token_turns_or_goes(bundle, pure, end):
    """What a wrong guess ruled out is the token's: when it turns face up (13.4.2) or is
    removed in battle, the mark goes (the invariants would find one left behind), and a
    new plot laid there, a snare this time, is dealt freely again."""
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), pure, face="extortion")
    _play(g, "expose snare 5")
    _play(g, "card bake-sale")
    assert g.faces_ruled_out(me) == {"5": ["snare"]}
    assert g.observation(cat)["players"][me]["faces_ruled_out"] == {"5": ["snare"]}
    if end == "flip":
        pos.goto(g, ME, "birdsong", "actions")
        _play(g, "flip 5")
        assert pos.count(g, "5", "extortion") == 1
    else:
        pos.set_dice(g, 3, 0)
        _play(g, f"battle 5 {ME}")
        while g.to_play != cat or g.decision not in ("actions", "march"):
            g.apply(g.legal_actions()[-1])  # (no ambush, no effects)
        assert pos.count(g, "5", "plot") == 0
    _ok(g)
    assert g.faces_ruled_out(me) == {}
    if end == "battle":
        pos.put(g, "5", "schemer", 2)
        pos.goto(g, ME, "daylight", "actions")
        _play(g, "plot snare 5")
        _ok(g)
        assert "snare" in _dealt_at(g, cat, me, "5")


RABBIT_CARDS = ("rabbit-ambush", "smugglers-trail", "rabbit-root-tea", "a-visit-to-friends",
                "bake-sale", "command-warren", "better-burrow-bank", "cobbler",
                "favor-of-the-rabbits")


@CORES
def test_samples_fit_guesses_that_leave_one_face_each(bundle, pure):
    """Four plots in the rabbit clearings 3, 4, 5 and 10, and nine wrong guesses that
    leave one face possible in each of 3, 4 and 5: every sample for the Marquise deals
    those three faces (a deal at random seldom fits, so the sample searches for one that
    does), keeps the invariants, and the plot in 10 is still dealt at random."""
    truth = {"3": "snare", "4": "extortion", "5": "bomb", "10": "raid"}
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), pure, face="bomb",
                        hand=RABBIT_CARDS, cats=dict.fromkeys(truth, 1))
    for c, face in truth.items():
        if c != "5":
            pos.put(g, c, "schemer", 1)
            pos.lay_face_down(g, c, face)
    cards = iter(RABBIT_CARDS)
    for c in ("3", "4", "5"):
        for face in FACES:
            if face != truth[c]:
                _play(g, f"expose {face} {c}")
                _play(g, f"card {next(cards)}")
    _ok(g)
    at_10 = set()
    for seed in range(60):
        t = g.determinize(cat, seed)
        _ok(t)
        down = t.faces_down(me)
        assert {c: down[c] for c in ("3", "4", "5")} == \
            {c: truth[c] for c in ("3", "4", "5")}, seed
        at_10.add(down["10"])
    assert len(at_10) > 1


@CORES
def test_what_a_guess_ruled_out_goes_with_the_token(bundle, pure):
    """A face-down Trick (13.5.4) swaps the plots of 5 and 9: the snare ruled out in 5
    is ruled out in 9 now, where that token lies; a right guess removes the plot, and
    with it what was ruled out there (the invariants check no mark is left behind)."""
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), pure, face="bomb",
                        hand=("bake-sale", "mouse-root-tea"))
    pos.put(g, "9", "schemer", 2)
    pos.lay_face_down(g, "9", "raid")
    _play(g, "expose snare 5")
    _play(g, "card bake-sale")
    pos.goto(g, ME, "daylight", "actions")
    _play(g, "trick 5")
    _play(g, "clearing 9")
    _ok(g)
    assert pos.faces_down(g, me) == {"5": "raid", "9": "bomb"}
    assert _dealt_at(g, cat, me, "9") == {"bomb", "extortion", "raid"}
    assert "snare" in _dealt_at(g, cat, me, "5")
    pos.goto(g, "marquise", "daylight", "actions")
    pos.put(g, "9", "cat-warrior", 1)
    _play(g, "expose bomb 9")
    _play(g, "card mouse-root-tea")
    _ok(g)
    assert pos.count(g, "9", "plot") == 0


@pytest.mark.parametrize("order", [("marquise", "test-schemers", "eyrie"),
                                   ("test-schemers", "alliance")], ids=["mse", "sa"])
def test_no_leak_in_random_games_with_exposure(bundle, order):
    rep = check_hidden(bundle, list(order), games=3, seed=41, positions=4, horizon=60)
    assert rep.ok, rep.leaks[:3]


def test_exposures_happen_in_random_games_and_both_cores_agree(bundle):
    """Random games take the offer up (the listing is live), the pure and the compiled
    core alike, decision by decision."""
    answered = 0
    for seed in range(3):
        games = play_alike(["test-schemers", "marquise", "eyrie"], seed, bundle, cap=3000)
        assert list(games[0].state) == list(games[1].state)
        kinds = [[e.kind for e in g.take_events()] for g in games]
        assert kinds[0] == kinds[1]
        answered += kinds[0].count("answered")
    assert answered > 0


# ------------------------------------------------------------------ validation


def _pack(tmp_path, *, faction=None, library=None):
    """A copy of the pack with changes: 'path/to/key' -> value, in the faction file
    (schemers.json) or the library (a list's next index appends)."""
    import json
    import shutil
    d = tmp_path / "pack"
    shutil.copytree(PACK, d)
    for name, changes in (("schemers.json", faction or {}), ("library.json", library or {})):
        f = d / name
        data = json.loads(f.read_text())
        for path, value in changes.items():
            *head, last = path.split("/")
            node = data
            for k in head:
                node = node[int(k)] if isinstance(node, list) else node[k]
            key = int(last) if isinstance(node, list) else last
            if isinstance(node, list) and key == len(node):
                node.append(value)
            else:
                node[key] = value
        f.write_text(json.dumps(data))
    return d


EXPOSE = "programs/expose/do"
MENU = "turn/daylight/0/menu"


@pytest.mark.parametrize("faction, library, file, code, words", [
    # the chosen card to the holder, from a program a menu entry runs
    ({f"{MENU}/4": {"action": "expose", "token": "plot", "faces": ["bomb"]}}, {},
     "schemers.json", "PROGRAM-USE", "a menu entry has none"),
    # an offer's program whose first choice is no clearing
    ({"abilities/2/use": {"action": "plot", "token": "plot", "faces": ["bomb", "snare"]}},
     {}, "schemers.json", "PROGRAM-USE", "begins with the taker's choice of a clearing"),
    # 'as_token' of a token with no faces
    ({"abilities/2/use/token": "bomb"}, {}, "schemers.json", "PROGRAM-USE",
     "no token laid face down"),
    # 'hides' inside another condition
    ({}, {f"{EXPOSE}/3/if": {"not": {"hides": "piece"}}}, "library.json",
     "PROGRAM-SHAPE", "an 'if' of its own"),
    # 'hides' 'piece' with no piece named
    ({}, {f"{EXPOSE}/0": {"op": "choose", "clearing": {"has": "$token"}}},
     "library.json", "PROGRAM-SHAPE", "no choice before it names one"),
    # a give in an 'if' that would ask the giver
    ({}, {f"{EXPOSE}/3/else/0/pick": "choice"}, "library.json", None, "ask nothing"),
    # a named piece in a forest
    ({}, {f"{EXPOSE}/0": {"op": "choose", "clearing": {"has": "$token"}},
          f"{EXPOSE}/1": {"op": "choose", "forest": {},
                          "piece": {"among": "$faces", "named": True}}},
     "library.json", "PROGRAM-SHAPE", "a piece 'named' is a guess"),
], ids=["give-chosen-in-a-menu", "offer-first-choice", "as-token-no-faces",
        "hides-nested", "hides-unnamed", "if-give-asks", "named-in-forest"])
def test_offers_misused_are_refused_where_written(tmp_path, faction, library, file, code,
                                                  words):
    from rootlaw.spec.validate import validate
    rep = validate([_pack(tmp_path, faction=faction, library=library)])
    errs = [d for d in rep.diagnostics if d.severity == "error"]
    assert errs and any(words in e.message and (code is None or e.code == code)
                        for e in errs), [str(e) for e in errs]
    assert all(e.file for e in errs)
    assert any(e.file.endswith(file) for e in errs if words in e.message)


def test_a_sample_dealt_mid_exposure_never_leaves_the_taker_without_a_choice(bundle):
    """Between the guess and the card, a sample dealt anew for another seat (determinize)
    may leave the taker no matching card (the others know one was there, the sample does
    not keep it): 'done' then passes the exposure by, so a game played on in the sample
    never stalls.  In the game itself the listing made sure of the card."""
    g, cat, me = _table(bundle, ("marquise", "test-schemers"), True,
                        hand=("bake-sale", "anvil", "sword", "foxfolk-steel"))
    _play(g, "expose bomb 5")
    assert _cards(g) == ["card bake-sale"] and "done" not in g.legal()
    stalled = 0
    for seed in range(200):
        t = g.determinize(me, seed)
        if t.to_play == cat and t.decision == "choice":
            legal = t.legal()
            assert legal, seed
            stalled += "done" in legal and not _cards(t)
            rng = random.Random(seed)
            for _ in range(300):  # played on: always something to choose
                la = t.legal_actions()
                assert la or t.is_over, seed
                if t.is_over:
                    break
                t.apply(la[rng.randrange(len(la))])
    assert stalled > 0  # some samples took the card away, and went on


def test_two_offers_of_one_program_are_refused(tmp_path):
    """An offer's actions are its program's verb: a second offer running it would list
    each action twice (PROGRAM-REF, located at the second)."""
    from rootlaw.spec.validate import validate
    second = {"kind": "offer", "id": "exposure-again", "law": "13.2.4",
              "use": {"action": "expose", "token": "plot", "faces": ["bomb"]}}
    rep = validate([_pack(tmp_path, faction={"abilities/3": second})])
    errs = [d for d in rep.diagnostics if d.severity == "error"]
    assert [(e.code, e.pointer) for e in errs] == [("PROGRAM-REF", "/abilities/3/use/action")]
    assert "another offer's already" in errs[0].message


@pytest.mark.parametrize("action", ["nonexistent", "march"])
def test_an_offer_of_no_program_is_told_where_written(tmp_path, capsys, action):
    """An offer naming no program of the libraries (a typo, or one of the Law's menu
    actions) is a located PROGRAM-REF, never a traceback, in validate and play alike."""
    from rootlaw.runtime.cli import main
    from rootlaw.spec.validate import validate
    d = _pack(tmp_path, faction={"abilities/2/use/action": action})
    errs = [e for e in validate([d]).diagnostics if e.severity == "error"]
    assert [(e.code, e.pointer) for e in errs] == [("PROGRAM-REF", "/abilities/2/use/action")]
    assert main(["validate", "--strict", str(d)]) != 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("op, words", [
    ({"op": "show", "card": "chosen", "to": "holder"}, "'chosen' card"),
    ({"op": "give", "pick": "chosen", "to": "holder"}, "'chosen' card"),
    ({"op": "if", "if": {"hides": "raid"}, "then": [{"op": "score", "vp": 1}]}, "'hides'"),
    ({"op": "remove", "piece": "plot", "as_token": True}, "'as_token'"),
], ids=["show-chosen", "give-chosen", "hides", "as-token"])
def test_an_effect_program_may_not_use_a_choice_it_has_not(tmp_path, op, words):
    """What only a program's choice gives (the chosen card, a named guess) is refused in
    an effect's or a trigger's program, where it is written (EFFECT-PART), instead of
    showing the whole hand or failing as the core is built."""
    from rootlaw.spec.validate import validate
    d = _pack(tmp_path, faction={"abilities/1/do": [op]})
    errs = [e for e in validate([d]).diagnostics if e.severity == "error"]
    assert any(e.code == "EFFECT-PART" and words in e.message and
               e.pointer.startswith("/abilities/1/do/0") for e in errs), \
        [str(e) for e in errs]
