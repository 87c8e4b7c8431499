"""The Python API's fast paths, on both cores: a decision is listed once and the listing is
never reused across a change of the state; observation vectors and masks are encoded by
the core into the caller's buffers, with the numbers the reference encoder
(tests/observation_reference.py, the Python encoder the core's replaced) gives; a clone is
a new core on a copy of the state.  Speed is measured by `rootlaw bench`, never here."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from observation_reference import ObservationEncoder

from rootlaw.runtime import Game, IllegalAction, RootlawError
from rootlaw.runtime import position as ps
from rootlaw.runtime.agents import RandomAgent
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import Bundle
from rootlaw.spec.loader import load_file

FAMILIES = Path(__file__).resolve().parent / "data" / "families"


def fresh_listing(g: Game) -> list[int]:
    """The pending decision listed by a new core on a copy of the state (no cache)."""
    return g._core_module.module.Core(array("q", g.state)).legal_actions()


def games(new_game, seeds):
    for factions in (("marquise", "eyrie"), ("eyrie", "marquise")):
        for seed in seeds:
            yield new_game(factions, seed)


def play(g: Game, seed: int, limit: int = 10_000):
    """Random decisions to the end; yield the game before each one and at the end."""
    agent = RandomAgent(seed)
    for _ in range(limit):
        yield g
        if g.is_over:
            return
        g.apply(agent.choose(g, g.legal_actions()))


def check_observations(g: Game, enc: ObservationEncoder, buffers) -> None:
    for seat in range(g.num_players):
        want = enc.encode(g, seat)
        got = g.observation_vector(seat)
        assert type(got) is array and got.typecode == "q" and got == want, seat
        for buf in buffers:
            assert g.observation_vector(seat, buf) is buf
            assert list(buf) == list(want), (seat, type(buf))


# ---------------------------------------------------------------- observations


def test_observation_layout_is_the_reference_layout(new_game):
    g = new_game()
    enc = ObservationEncoder(g.consts, g.names)
    assert g.observation_layout == enc.layout
    assert g.info.observation_size == enc.size == g.consts["OBS_SIZE"]


def test_observation_vectors_are_the_reference_encoders(new_game, core_kind):
    """Every seat at every decision of whole games, both seat orders: the core's vector,
    fresh and written into reused array('q') (and numpy) buffers, is the reference's."""
    seeds = range(1, 4) if core_kind == "compiled" else range(1, 2)
    for g in games(new_game, seeds):
        enc = ObservationEncoder(g.consts, g.names)
        buffers = [array("q", bytes(8 * enc.size))]
        try:
            import numpy as np
            buffers.append(np.zeros(enc.size, np.int64))
        except ImportError:
            pass
        positions = 0
        for pos in play(g, g.seed):
            check_observations(pos, enc, buffers)
            positions += 1
        assert g.is_over and positions > 50


def test_observation_vectors_in_scenario_positions(mid_game):
    """Positions the scenario helpers write (cards in hands, play areas and columns,
    crafted items, roles, dominance), and a turn held where it ends."""
    g = mid_game(seed=3)
    enc = ObservationEncoder(g.consts, g.names)
    eyrie = ps.seat_of(g, "eyrie")
    ps.set_hand(g, 0, ["anvil", "bird-ambush"])
    ps.set_play_area(g, 1, ["armorers"])
    ps.set_column(g, eyrie, ps.columns_of(g, eyrie)[1], ["birdy-bindle", "foxfolk-steel"])
    ps.set_crafted(g, 1, "sword", 1)
    ps.set_role(g, eyrie, ps.roles_of(g, eyrie)[2])
    ps.set_dominance(g, 1 - eyrie, "mouse-dominance")
    check_observations(g, enc, [array("q", bytes(8 * enc.size))])
    g._core.set_stop(g.consts["STOP_END_OF_TURN"])
    for _ in play(g, 5, 500):
        if g.decision in ("end_of_turn", "end_of_phase"):
            break
    assert g.decision == "end_of_turn"
    off = g.observation_layout["decision"][0]
    frames_and_ops = len(g.names["frames"]) + len(g.names["ops"])
    for seat in (0, 1):  # the reference has no index for a stop: the core puts stops last
        assert g.observation_vector(seat)[off] == frames_and_ops + 0


def test_seats_nobody_sits_in_read_empty():
    """A two-player game on a four-seat bundle (pure path: the same code as compiled):
    the empty seats' faction, role and dominance read -1, their counts 0."""
    b = base_bundle()
    bundle = Bundle(b.map, b.deck, (b.faction("marquise"), b.faction("eyrie"),
                                    load_file(FAMILIES / "test-red.json"),
                                    load_file(FAMILIES / "test-blue.json")))
    g = Game(["eyrie", "test-red"], 4, bundle=bundle, pure=True)
    assert g.consts["P"] == 4
    enc = ObservationEncoder(g.consts, g.names)
    for pos in play(g, 4, 150):
        check_observations(pos, enc, [])
    v, lay = g.observation_vector(1), g.observation_layout
    for name in ("faction", "role", "dominance"):
        off, _ = lay[name]
        assert list(v[off + 2:off + 4]) == [-1, -1], name
    assert list(v[lay["vp"][0] + 2:lay["vp"][0] + 4]) == [0, 0]


def test_bad_observation_buffers_and_seats_are_refused(new_game):
    g = new_game()
    size = g.info.observation_size
    for bad in (array("q", bytes(8 * (size - 1))), array("i", bytes(4 * size)),
                array("d", bytes(8 * size)), memoryview(bytes(8 * size)).cast("q"),
                [0] * size, b"x"):
        with pytest.raises(RootlawError, match="VALUE-INVALID"):
            g.observation_vector(0, bad)
    for seat in (2, -1, True, "0", 2**70):
        with pytest.raises(RootlawError, match="REF-UNDEF"):
            g.observation_vector(seat)
    with pytest.raises(RootlawError, match="VALUE-INVALID"):
        g.action_mask(array("q", bytes(8 * g.info.num_actions)))


def test_a_reused_observation_buffer_follows_the_game(new_game):
    g = new_game()
    buf = array("q", bytes(8 * g.info.observation_size))
    g.observation_vector(0, buf)
    before = list(buf)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    g.observation_vector(0, buf)
    assert list(buf) == list(g.observation_vector(0)) != before
    # The core let go of the last fresh vector: the caller may resize it.
    v = g.observation_vector(1)
    v.append(7)


# ---------------------------------------------------------------- masks


def test_masks_mark_the_legal_actions(new_game):
    for g in games(new_game, (2,)):
        buf = array("b", bytes(g.info.num_actions))
        for pos in play(g, 2):
            legal = pos.legal_actions()
            want = [0] * g.info.num_actions
            for a in legal:
                want[a] = 1
            assert list(pos.action_mask()) == want
            assert pos.action_mask(buf) is buf and list(buf) == want
        assert g.is_over and not any(buf)


# ---------------------------------------------------------------- one listing per decision


def test_the_listing_is_the_fresh_listing_at_every_decision(new_game):
    for g in games(new_game, (3,)):
        for pos in play(g, 3):
            assert pos.legal_actions() == fresh_listing(pos)


def test_the_api_lists_each_decision_once(monkeypatch):
    """Played through legal_actions() and apply(), a game lists exactly as often as the
    core's own random playout of it (which lists each decision once, and probes steps
    that have nothing to offer): no decision is listed again for apply (pure path, where
    the core's methods can be counted)."""
    core_class = type(Game(["marquise", "eyrie"], 3, pure=True)._core)
    listings = [0]
    gen_legal = core_class.gen_legal

    def counted(self):
        listings[0] += 1
        return gen_legal(self)

    monkeypatch.setattr(core_class, "gen_legal", counted)
    g = Game(["marquise", "eyrie"], 3, pure=True)
    decisions = g._core.playout(3, 300)
    in_playout, listings[0] = listings[0], 0
    g = Game(["marquise", "eyrie"], 3, pure=True)
    for pos in play(g, 3, decisions):
        pos.legal_actions()
        pos.legal_actions()  # asked twice: still one listing
    assert len(g.history) == decisions == 300
    assert listings[0] == in_playout < 1.1 * decisions


def test_a_write_to_the_state_lists_the_decision_anew(mid_game):
    """The scenario helpers write g.state item by item: every such write makes the core
    list again, so an action the edit made illegal is refused."""
    g = mid_game(seed=2, clear=False)
    while g.decision != "actions":
        g.apply(g.legal_actions()[0])
    before = g.legal_actions()
    ps.clear_board(g)
    after = g.legal_actions()
    assert after == fresh_listing(g) and after != before
    gone = next(a for a in before if a not in after)
    state = list(g.state)
    with pytest.raises(IllegalAction):
        g.apply(gone)
    assert list(g.state) == state
    # One item written is enough: a warrior back where there was none.
    ps.put(g, g.names["clearings"][0], g.names["pieces"][0], 3)
    assert g.legal_actions() == fresh_listing(g) != after


def test_a_write_through_a_buffer_needs_note_edit(mid_game):
    g = mid_game(seed=2, clear=False)
    while g.decision != "actions":
        g.apply(g.legal_actions()[0])
    g.legal_actions()
    view = memoryview(g.state)
    board, n = g.S["BOARD"], g.consts["C"] * g.consts["NP"]
    for i in range(n):
        view[board + i] = 0
    g.note_edit()
    assert g.legal_actions() == fresh_listing(g)


def test_an_edit_of_another_game_leaves_the_listing_right(new_game):
    g, h = new_game(seed=5), new_game(seed=5)
    for _ in range(20):
        g.apply(g.legal_actions()[0])
        h.apply(h.legal_actions()[0])
    listed = g.legal_actions()
    ps.clear_board(h)
    assert g.legal_actions() == listed == fresh_listing(g)


# ---------------------------------------------------------------- clones


def test_a_clone_is_independent(new_game):
    g = new_game(seed=6)
    for _ in range(40):
        g.apply(g.legal_actions()[0])
    g.legal_actions()
    c = g.clone()
    assert list(c.state) == list(g.state) and c.history == g.history
    assert c.state is not g.state  # the history is shared until a decision (below)
    assert type(c.state) is type(g.state)
    assert c.legal_actions() == g.legal_actions() == fresh_listing(c)
    state, history = list(g.state), list(g.history)
    for pos in play(c, 6, 200):
        assert pos.legal_actions() == fresh_listing(pos)
    assert list(g.state) == state and g.history == history
    assert g.legal_actions() == fresh_listing(g)
    # An edit of the clone is seen by the clone, and the original keeps its listing.
    d = g.clone()
    ps.clear_board(d)
    assert d.legal_actions() == fresh_listing(d)
    assert g.legal_actions() == fresh_listing(g)


def test_a_clone_shares_its_history_only_until_a_decision(new_game):
    """clone() copies no history (copy on write): whichever game takes the next decision
    first gets its own list; the other keeps what it had, clones of clones too."""
    g = new_game(seed=8)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    before = list(g.history)
    c = g.clone()
    d = c.clone()
    g.apply(g.legal_actions()[-1])  # the original moves on first
    assert c.history == d.history == before and g.history[:-1] == before
    c.apply(c.legal_actions()[0])
    assert d.history == before and c.history == before + [c.history[-1]]
    assert g.history[:-1] == before and len(g.history) == len(before) + 1
    n = d.playout(3, 20)
    assert len(d.history) == len(before) + n and c.history[:-1] == before
    e = d.clone()
    if not e.is_over:
        e.apply(e.legal_actions()[0])
    assert d.history[:len(before)] == before and len(d.history) == len(before) + n


def test_a_clone_plays_the_same_game(new_game):
    g = new_game(seed=7)
    for _ in range(25):
        g.apply(g.legal_actions()[-1])
    c = g.clone()
    n = g.playout(11)
    assert c.playout(11) == n
    assert list(c.state) == list(g.state) and c.history == g.history


# ---------------------------------------------------------------- every kind of field


def test_every_kind_of_observation_field(tmp_path):
    """Field kinds the base table does not use yet, as a new field will: a per-seat state
    field only its owner sees, per-seat card locations with slots shown to their owner
    or as numbers, a shared pile's size, a seat, a flag.  Rendered into a core (pure
    path: the compiled core runs the same lines) and checked against the state."""
    from rootlaw.generator import render_core
    from rootlaw.generator.tables import OBSERVATION, Obs, build_tables

    extra = (
        Obs("my_crafted", "state", "CRAFTED", per_seat=True, visibility="owner"),
        Obs("column_sizes", "cards", "LOC_COLUMN", per_seat=True, slots="L",
            visibility="hidden"),
        Obs("my_columns", "cards", "LOC_COLUMN", per_seat=True, slots="L",
            visibility="owner"),
        Obs("discard_size", "cards", "LOC_DISCARD", visibility="hidden"),
        Obs("first", "seat", "FIRST"),
        Obs("stopped", "flag", "STOPPED"),
    )
    bundle = base_bundle()
    t = build_tables(bundle, OBSERVATION + extra)
    path = tmp_path / "extra_core.py"
    path.write_text(render_core(bundle, tables=t), encoding="utf-8")
    import importlib.util
    spec = importlib.util.spec_from_file_location("rootlaw_test_extra_obs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lay = mod.LAYOUT["observation"]
    g = Game(["eyrie", "marquise"], 9, pure=True)  # the reference, for the base fields
    c = g.consts
    P, L, K, N = c["P"], c["L"], c["K"], c["N"]
    assert lay["my_crafted"][1] == c["I"] and lay["column_sizes"][1] == P * L
    assert lay["my_columns"][1] == L * K and lay["discard_size"][1] == 1
    state = mod.new_state()
    core = mod.Core(state)
    core.init_game(9, g._seats)
    S = mod.LAYOUT["state"]
    defs = g.card_defs
    agent = RandomAgent(9)
    seen_columns = False
    for _ in range(400):
        if state[S["OVER"]]:
            break
        g.state[:] = array("q", state)
        n = state[S["NPLAYERS"]]
        for seat in range(n):
            v = core.observe(seat, None)
            assert list(v[:g.info.observation_size]) == list(g.observation_vector(seat))

            def field(name, v=v):
                off, size = lay[name]
                return list(v[off:off + size])

            locs = [state[S["CARD_LOC"] + i] for i in range(N)]
            rel = [(q - seat) % n for q in range(n)]
            crafted = S["CRAFTED"] + seat * c["I"]
            assert field("my_crafted") == list(state[crafted:crafted + c["I"]])
            sizes = [0] * (P * L)
            mine = [0] * (L * K)
            for i, loc in enumerate(locs):
                j = loc - c["LOC_COLUMN"]
                if 0 <= j < n * L:
                    q, col = divmod(j, L)
                    sizes[rel[q] * L + col] += 1
                    if q == seat:
                        mine[col * K + defs[i]] += 1
                        seen_columns = True
            assert field("column_sizes") == sizes
            assert field("my_columns") == mine
            assert field("discard_size") == [locs.count(c["LOC_DISCARD"])]
            assert field("first") == [rel[state[S["FIRST"]]]]
            assert field("stopped") == [int(state[S["STOPPED"]] != 0)]
        legal = core.legal_actions()
        core.apply(agent.choose(None, legal))
    assert seen_columns, "no Decree card was ever seen: the test saw nothing"
