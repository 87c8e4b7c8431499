"""Law 1.2: hidden information is a security boundary.

Whether a player is asked, what comes next and every public effect depend only on what
the table may know; what a seat cannot see can be sampled (``Game.determinize``) for a
tool that must reason about it.  The twin check (runtime/hidden.py, ``rootlaw check
--hidden``) runs over every base mix, at two, three and four seats, and the example
packs, and must find leaks in cores made leaky on purpose.  The rules cases themselves
are scenarios (tests/scenarios/01-golden-rules/hidden-*, craft-step-*), run on both
cores by test_law_scenarios.py."""

from __future__ import annotations

import importlib.util
import random
from functools import cache
from pathlib import Path

import pytest
from conftest import example_bundle

from rootlaw.generator import build as gbuild
from rootlaw.generator import render_core
from rootlaw.runtime import Game, RandomAgent, RootlawError
from rootlaw.runtime import core as rcore
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.hidden import check_hidden, play_twins
from rootlaw.spec import Bundle
from rootlaw.spec.loader import load_file

FAMILIES = Path(__file__).resolve().parent / "data" / "families"
MIXES = [("marquise", "eyrie"), ("eyrie", "marquise"), ("marquise", "alliance"),
         ("alliance", "eyrie"), ("marquise", "eyrie", "alliance"),
         ("alliance", "marquise", "eyrie"), ("eyrie", "alliance", "marquise")]


@cache
def four_seats() -> Bundle:
    """The base game with a fourth faction whose zone is face up (tests/data/families)."""
    b = base_bundle()
    bundle = Bundle(b.map, b.deck, (*b.factions, load_file(FAMILIES / "test-open.json")))
    gbuild.compile_core(bundle)
    return bundle


@pytest.mark.parametrize("factions", MIXES, ids=lambda f: "-".join(x[0] for x in f))
def test_no_leak_in_any_base_mix(factions):
    rep = check_hidden(base_bundle(), factions, games=25, seed=100)
    assert rep.pairs >= 25 * 6 * 2 * 2 and rep.compared > 5_000, rep
    assert rep.revealed > rep.pairs // 2, "twins must mostly run until a card is shown"
    assert rep.ok, "\n".join(map(str, rep.leaks[:5]))


@pytest.mark.parametrize("factions", [("marquise", "eyrie", "alliance", "test-open"),
                                      ("test-open", "alliance", "eyrie", "marquise")],
                         ids=["mea-open", "open-aem"])
def test_no_leak_at_four_seats_with_a_face_up_zone(factions):
    rep = check_hidden(four_seats(), factions, games=15, seed=7)
    assert rep.pairs >= 15 * 6 * 4 * 2 and rep.compared > 5_000, rep
    assert rep.ok, "\n".join(map(str, rep.leaks[:5]))


@pytest.mark.parametrize("pack", ["hedge-druids", "four-actions", "homebrew-map"])
def test_no_leak_in_the_example_packs(pack):
    bundle = example_bundle(pack)
    rep = check_hidden(bundle, None, games=10, seed=3)
    assert rep.pairs > 0 and rep.compared > 1_000, rep
    assert rep.ok, "\n".join(map(str, rep.leaks[:5]))


# ------------------------------------------------------- the check finds real leaks

HIDDEN = "        return self.loc_hidden(self.s[S_CARD_LOC + card])\n"


def leaky(bundle: Bundle, old: str, new: str, monkeypatch) -> None:
    """Make the pure core of ``bundle`` the rendered core with one line changed: what
    a rules bug would look like.  monkeypatch puts the real one back afterwards."""
    src = render_core(bundle)
    assert src.count(old) == 1, old
    path = Path(__import__("tempfile").mkdtemp()) / "leaky_core.py"
    path.write_text(src.replace(old, new), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("rootlaw_leaky_core", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    real = rcore.load_core(bundle, pure=True)
    monkeypatch.setitem(rcore._LOADED, (gbuild.core_key(bundle), True),
                        rcore.CoreModule(mod, False, "leaky", real.tables))


def test_the_check_finds_face_down_zones_counted_as_known(monkeypatch):
    """Today's leak: the supporters taken as face up by the questions (ambush, dominance)."""
    b = base_bundle()
    leaky(b, HIDDEN, HIDDEN.replace("card])\n", "card]) and "
                                    "self.s[S_CARD_LOC + card] < LOC_ZONE\n"), monkeypatch)
    rep = check_hidden(b, ("marquise", "eyrie", "alliance"), games=20, seed=1, pure=True)
    assert rep.leaks, "the check missed the face-down zone leak"
    assert any(x.detail.count("decision") for x in rep.leaks)


def test_the_check_finds_third_and_fourth_hands_counted_as_known(monkeypatch):
    """The mutation the issue names: seats 2 and 3's hands taken as face up."""
    b = base_bundle()
    leaky(b, HIDDEN, HIDDEN.replace("card])\n", "card]) and not (LOC_HAND + 2 <= "
                                    "self.s[S_CARD_LOC + card] < LOC_HAND + P)\n"), monkeypatch)
    rep = check_hidden(b, ("marquise", "eyrie", "alliance"), games=20, seed=1, pure=True)
    assert rep.leaks, "the check missed the third seat's hand counted as face up"


def craft_position(hand: str, *, bundle: Bundle | None = None, pure: bool | None = None):
    """Three players; the Marquise in its Daylight craft step with no crafting piece,
    a dominance card available, one card in hand (Law 3.3.4, 4.1)."""
    from rootlaw.runtime import position as pos

    g = Game(["marquise", "eyrie", "alliance"], 5, bundle=bundle, pure=pure)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    pos.clear_board(g)
    pos.put(g, 1, "cat-warrior", 1)
    pos.set_hand(g, 0, [hand])
    pos.set_cards_at(g, g.consts["LOC_AVAILABLE"], ["mouse-dominance"])
    pos.goto(g, "marquise", "daylight", "craft")
    return g


def test_the_check_finds_the_craft_step_asked_by_the_hand(monkeypatch):
    """Today's second leak: with no crafting piece left, the craft step was asked only
    when the hand allowed something (here: taking an available dominance)."""
    b = base_bundle()
    leaky(b, "            if not self.craft_open(p) and n == m:\n",
          "            if n == 0 and (self.hand_size(p) == 0 or self.craft_spare(p, 0) + "
          "self.craft_spare(p, 1) + self.craft_spare(p, 2) <= 0):\n", monkeypatch)
    g = craft_position("anvil", pure=True)   # cannot take the mouse dominance
    twin = craft_position("sword", pure=True)  # can: the twin differs in the hand only
    assert len(g.hand(0)) == len(twin.hand(0)) == 1 and g.hand(0) != twin.hand(0)
    assert g.decision != twin.decision  # the leak: every seat sees what is asked
    end, detail, _, _ = play_twins(g.clone(), twin.clone(), 1, horizon=5,
                                   rng=random.Random(1), future=False)
    assert end == "leak" and "decision" in detail


def test_the_craft_step_is_asked_alike_for_both_hands():
    g, twin = craft_position("anvil"), craft_position("sword")
    assert g.decision == twin.decision == "craft"
    assert g.observation_vector(1) == twin.observation_vector(1)
    end, _, _, _ = play_twins(g, twin, 1, horizon=50, rng=random.Random(2), future=False)
    assert end != "leak"


# ------------------------------------------------------------------ determinize


def positions(factions, seed: int, every: int = 37):
    """Positions of a seeded random game, every so many decisions."""
    g = Game(list(factions), seed)
    agent = RandomAgent(seed)
    while not g.is_over and len(g.history) < 1500:
        if len(g.history) % every == 0:
            yield g
        g.apply(agent.choose(g, g.legal_actions()))


def where(g: Game) -> list[int]:
    return [g.state[g.S["CARD_LOC"] + i] for i in range(g.consts["N"])]


@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("marquise", "eyrie", "alliance"),
                                      ("alliance", "eyrie", "marquise")])
def test_determinize_keeps_the_seat_s_view_and_varies_what_it_cannot_see(factions):
    varied = kept_known = 0
    for g in positions(factions, 11):
        for seat in range(g.num_players):
            view = list(g.observation_vector(seat))
            before = where(g)
            samples = [g.determinize(seat, random.Random(k)) for k in range(4)]
            for d in samples:
                assert list(d.observation_vector(seat)) == view
                assert d.legal_actions() == g.legal_actions() or g.to_play != seat
                after = where(d)
                # Every card the seat sees stays where it is; counts per place stay.
                for i, (x, y) in enumerate(zip(before, after, strict=True)):
                    if not _hidden_from(g, seat, x):
                        assert x == y, (seat, i)
                assert sorted(before) == sorted(after)
                deck = [d.state[d.S["DECK"] + i] for i in range(d.state[d.S["DECK_LEN"]])]
                assert sorted(deck) == [i for i, x in enumerate(after) if x == 0]
            if any(where(d) != before for d in samples):
                varied += 1
            known = [i for i, k in enumerate(g.knowledge(seat))
                     if k == 0 and _hidden_from(g, seat, before[i])]
            kept_known += len(known)
            for d in samples:
                assert all(where(d)[i] == before[i] for i in known)
    assert varied > 10, "determinize never changed what the seat cannot see"


def _hidden_from(g: Game, seat: int, loc: int) -> bool:
    c = g.consts
    if loc == c["LOC_DECK"]:
        return True
    if c["LOC_HAND"] <= loc < c["LOC_HAND"] + c["P"]:
        return loc - c["LOC_HAND"] != seat
    if loc >= c["LOC_ZONE"]:
        q, z = divmod(loc - c["LOC_ZONE"], c["Z"])
        return q != seat and g.zone_face_down(q, g.names["zones"][g._seats[q]][z])
    return False


def test_a_card_the_seat_saw_stays_where_it_saw_it():
    """Codebreakers shows a hand (Law 1.2.1): the viewer knows those cards' place; a card
    it gives into the supporters (Outrage) it knows is there."""
    found_shown = found_given = 0
    for seed in range(1, 60):
        g = Game(["marquise", "eyrie", "alliance"], seed)
        agent = RandomAgent(seed)
        while not g.is_over and len(g.history) < 2000:
            legal = g.legal_actions()
            a = agent.choose(g, legal)
            text, seat, asked = g.notation(a), g.to_play, g.decision
            g.apply(a)
            if text.startswith("use codebreakers on "):
                found_shown += 1
                target = g.factions.index(text.split()[-1])
                shown = [i for i, x in enumerate(where(g)) if x == g.consts["LOC_HAND"] + target]
                assert all(g.knowledge(seat)[i] == 0 for i in shown)
                d = g.determinize(seat, seed)
                assert all(where(d)[i] == where(g)[i] for i in shown)
            elif asked == "zone_give" and text != "done":
                d = g.names["cards"].index(text.split()[-1])
                given = [i for i, x in enumerate(g.card_defs)
                         if x == d and where(g)[i] >= g.consts["LOC_ZONE"]]
                if given:  # not discarded from a full zone (Law 8.2.3.I)
                    found_given += 1
                    assert any(g.knowledge(seat)[i] == 0 for i in given)
                    dd = g.determinize(seat, seed)
                    assert any(where(dd)[i] == where(g)[i] for i in given)
        if found_shown >= 3 and found_given >= 3:
            break
    assert found_shown >= 3 and found_given >= 3


def test_the_future_is_drawn_again():
    """future=True reseeds the game's stream (dice, shuffles); False keeps it."""
    g = next(iter(positions(("marquise", "eyrie"), 4, every=120)))
    same = g.determinize(0, 1, cards=False, future=False)
    assert list(same.state) == list(g.state)
    fresh = [g.determinize(0, k, cards=False) for k in range(5)]
    assert len({d.state[d.S["RNG"]] for d in fresh}) == 5
    assert all(d.state[d.S["RNG"]] != g.state[g.S["RNG"]] for d in fresh)


def test_determinize_is_reproducible_and_refuses_a_bad_rng():
    g = next(iter(positions(("marquise", "eyrie", "alliance"), 9, every=200)))
    assert list(g.determinize(1, 42).state) == list(g.determinize(1, 42).state)
    assert list(g.determinize(1, random.Random(5)).state) == \
        list(g.determinize(1, random.Random(5)).state)
    with pytest.raises(RootlawError) as e:
        g.determinize(1, "seven")
    assert e.value.code == "VALUE-INVALID"
    with pytest.raises(RootlawError):
        g.determinize(7, 1)


def test_a_determinized_game_is_not_saved(tmp_path):
    g = next(iter(positions(("marquise", "eyrie"), 2, every=50)))
    d = g.determinize(0, 3)
    with pytest.raises(RootlawError) as e:
        d.save(tmp_path / "x.json")
    assert e.value.code == "SAVE-SAMPLED"
    assert not (tmp_path / "x.json").exists()
    g.save(tmp_path / "real.json")  # the game itself still saves
    assert Game.load(tmp_path / "real.json").history == g.history


def test_reshuffled_cards_are_one_group_for_every_seat():
    """A reshuffle makes the discards one new group: they may be in the deck, or in the
    hands of those who drew since, never in a hand dealt before (Law 2.1)."""
    seen = 0
    for seed in range(1, 40):
        g = Game(["marquise", "eyrie"], seed)
        agent = RandomAgent(seed)
        g.record_events()
        while not g.is_over and len(g.history) < 3000:
            before = where(g)
            g.apply(agent.choose(g, g.legal_actions()))
            if any(e.kind == "reshuffled" for e in g.take_events()) and \
                    g.state[g.S["DECK_LEN"]] > 1:
                deck = [g.state[g.S["DECK"] + i] for i in range(g.state[g.S["DECK_LEN"]])]
                for seat in range(2):
                    k = g.knowledge(seat)
                    assert len({k[i] for i in deck}) == 1 and k[deck[0]] != 0
                    # The other hand's cards from before the reshuffle are not the deck's.
                    held = [i for i, x in enumerate(where(g))
                            if x == g.consts["LOC_HAND"] + 1 - seat and x == before[i]]
                    assert all(k[i] != k[deck[0]] for i in held)
                seen += 1
                break
        if seen >= 3:
            break
    assert seen >= 3


def test_cards_of_a_face_up_zone_are_seen_by_everyone():
    """A zone its content declares face up (face_down: false) is public: every seat's
    observation shows its cards, and its cards count as known to the questions."""
    g = Game(["marquise", "eyrie", "alliance", "test-open"], 3, bundle=four_seats())
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    seat = g.factions.index("test-open")
    cards = g.zone(seat, "open-pile")
    assert len(cards) == 2
    for viewer in range(4):
        ob = g.observation(viewer)["players"][seat]["zones"]["open-pile"]
        assert ob["cards"] == cards
        off, size = g.observation_layout["open_zones"]
        assert sum(g.observation_vector(viewer)[off:off + size]) == 2
    alliance = g.factions.index("alliance")
    for viewer in range(4):
        ob = g.observation(viewer)["players"][alliance]["zones"]["supporters"]
        assert (ob["cards"] is None) == (viewer != alliance)


# ------------------------------------------------------------------ the command


def test_check_hidden_command(capsys, monkeypatch):
    """`rootlaw check --hidden`: ok on the base game; on a leaky core, the leak with the
    game, seat and decision to reproduce it, and exit 1."""
    from rootlaw.runtime.cli import main

    rc = main(["check", "--hidden", "--factions", "marquise,eyrie,alliance", "--games", "4"])
    out = capsys.readouterr().out
    assert rc == 0 and "ok: no leak" in out and "pairs" in out
    b = base_bundle()
    leaky(b, HIDDEN, HIDDEN.replace("card])\n", "card]) and "
                                    "self.s[S_CARD_LOC + card] < LOC_ZONE\n"), monkeypatch)
    monkeypatch.setenv("ROOTLAW_PURE", "1")
    rc = main(["check", "--hidden", "--factions", "marquise,eyrie,alliance", "--games", "20"])
    out = capsys.readouterr().out
    assert rc == 1 and "FAIL HIDDEN-LEAK marquise,eyrie,alliance seed" in out
    assert "FAILED:" in out.splitlines()[-1]
@pytest.mark.parametrize("factions", [("marquise", "eyrie"), ("marquise", "eyrie", "alliance")])
def test_a_sample_depends_only_on_what_the_seat_knows(factions):
    """Two games a seat cannot tell apart (a twin: the other hands, the face-down zones
    and the deck's order dealt again, the dice to come drawn again) give the same sample
    for the same seed: what a search agent plays on is a function of the seat's view."""
    pairs = differ = 0
    for g in positions(factions, 5, every=29):
        for seat in range(g.num_players):
            twin = g.determinize(seat, 1000 + len(g.history))
            differ += where(twin) != where(g)
            for seed in (1, 2):
                a, b = g.determinize(seat, seed), twin.determinize(seat, seed)
                assert list(a.state) == list(b.state), (len(g.history), seat)
                assert a.knowledge(seat) == b.knowledge(seat)
                pairs += 1
    assert pairs > 40 and differ > 10, (pairs, differ)


def test_a_sample_is_the_same_on_both_cores():
    fast = Game(["marquise", "eyrie", "alliance"], 12)
    slow = Game(["marquise", "eyrie", "alliance"], 12, pure=True)
    agent = RandomAgent(12)
    compared = 0
    while not fast.is_over and len(fast.history) < 300:
        if len(fast.history) % 50 == 0:
            for seat in range(3):
                assert list(fast.determinize(seat, 9).state) == \
                    list(slow.determinize(seat, 9).state)
                compared += 1
        a = agent.choose(fast, fast.legal_actions())
        fast.apply(a)
        slow.apply(a)
    assert compared >= 15
