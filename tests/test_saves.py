"""Saves (Game.save / Game.load) and what a seat may see (Game.observation)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from rootlaw.runtime import Game, RootlawError, SaveError
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.cli import main
from rootlaw.spec import resolve


def played(game: Game, n: int) -> Game:
    """Take n decisions, picking a spread of legal actions (deterministic)."""
    for i in range(n):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[(i * 7) % len(legal)])
    return game


def past_setup(game: Game) -> Game:
    while game.phase == "setup":
        game.apply(game.legal_actions()[0])
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert list(a.state) == list(b.state)
    assert a.history == b.history
    assert a.factions == b.factions and a.seed == b.seed
    assert a.bundle.hash == b.bundle.hash
    assert a.is_over == b.is_over
    if not a.is_over:
        assert a.legal_actions() == b.legal_actions()
        assert a.to_play == b.to_play


# ---------------------------------------------------------------------- round trips


@pytest.mark.parametrize("decisions", [0, 1, 60])
def test_save_load_round_trips_exactly(new_game, tmp_path, decisions):
    g = played(new_game(seed=5), decisions)
    assert len(g.history) == decisions
    path = tmp_path / "game.json"
    g.save(path)
    h = Game.load(path)
    assert_same_game(g, h)
    assert g.to_dict() == h.to_dict()
    # The loaded game goes on exactly like the original.
    played(g, 30)
    played(h, 30)
    assert_same_game(g, h)


def test_a_finished_game_round_trips(tmp_path):
    g = Game(["marquise", "eyrie"], 9)
    g.playout(9)
    assert g.is_over
    g.save(tmp_path / "end.json")
    h = Game.load(tmp_path / "end.json")
    assert_same_game(g, h)
    assert h.winner_faction == g.winner_faction and h.scores == g.scores


def test_a_save_loads_on_the_other_core(tmp_path):
    g = played(Game(["marquise", "eyrie"], 2, pure=False), 80)
    g.save(tmp_path / "s.json")
    h = Game.load(tmp_path / "s.json", pure=True)
    assert not h.compiled
    assert_same_game(g, h)


def test_json_and_dict_round_trips():
    g = played(Game(["marquise", "eyrie"], 3), 25)
    assert_same_game(g, Game.from_json(g.to_json()))
    assert_same_game(g, Game.from_dict(json.loads(g.to_json())))


def test_play_save_writes_a_loadable_save(capsys, tmp_path):
    path = tmp_path / "final.json"
    assert main(["play", "--seed", "3", "--quiet", "--factions", "marquise,eyrie",
                 "--save", str(path)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    g = Game.load(path)
    assert g.is_over and g.seed == 3
    assert f"winner: {g.winner_faction} " in line and f"decisions={len(g.history)} " in line


# ---------------------------------------------------------------------- atomic writes


def test_save_leaves_no_temp_files(tmp_path):
    g = played(Game(["marquise", "eyrie"], 4), 10)
    path = tmp_path / "s.json"
    g.save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]
    played(g, 10)
    g.save(path)  # overwrite in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]
    assert Game.load(path).history == g.history


def test_a_failed_save_keeps_the_old_file_and_leaves_no_temp_file(tmp_path, monkeypatch):
    g = played(Game(["marquise", "eyrie"], 4), 10)
    path = tmp_path / "s.json"
    g.save(path)
    before = path.read_bytes()
    played(g, 10)

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(RootlawError) as e:  # the project's coded error, not a raw OSError
        g.save(path)
    assert e.value.code == "IO-ERROR" and str(path) in str(e.value)
    assert "No space left" in str(e.value)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_save_gets_the_same_permissions_as_a_plain_file(tmp_path):
    # Writing through a temp file must not change the mode a plain write would give.
    plain = tmp_path / "plain.json"
    plain.write_text("{}", encoding="utf-8")
    path = tmp_path / "s.json"
    Game(["marquise", "eyrie"], 1).save(path)
    assert stat.S_IMODE(path.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode), \
        f"save written with mode {oct(stat.S_IMODE(path.stat().st_mode))}"


# ---------------------------------------------------------------------- corrupt saves


@pytest.fixture
def save(tmp_path):
    """(path, data): a mid-game save and its JSON data; write(data) rewrites the file."""
    g = played(Game(["marquise", "eyrie"], 6), 40)
    path = tmp_path / "s.json"
    g.save(path)
    return path, json.loads(path.read_text(encoding="utf-8"))


def load_error(path, code="SAVE-CORRUPT", **kw) -> SaveError:
    """Game.load must raise SaveError with this code, and never another exception."""
    try:
        Game.load(path, **kw)
    except SaveError as e:
        assert e.code == code, f"{e.code} instead of {code}: {e}"
        assert str(path) in str(e), f"the error does not name the file: {e}"
        return e
    except BaseException as e:  # noqa: BLE001
        pytest.fail(f"Game.load raised {type(e).__name__} ({e}), not SaveError {code}")
    pytest.fail("a corrupt save loaded")


def write(path, data) -> None:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")


def test_the_fixture_save_loads(save):
    path, _ = save
    assert len(Game.load(path).history) == 40


@pytest.mark.parametrize("text", ["not json", "", "{", '{"format": 1,', "\x00\x01"])
def test_a_save_that_is_not_json(save, text):
    path, _ = save
    write(path, text)
    assert "not JSON" in str(load_error(path))


def test_a_save_that_is_not_utf8(save):
    path, _ = save
    path.write_bytes(b"\xff\xfe\x00 garbage")
    load_error(path)


@pytest.mark.parametrize("text", ["[]", "null", '"save"', "42"])
def test_a_save_that_is_not_an_object(save, text):
    path, _ = save
    write(path, text)
    load_error(path)


@pytest.mark.parametrize("key", ["format", "bundle", "factions", "seed", "actions", "state"])
def test_a_save_missing_a_key(save, key):
    path, data = save
    del data[key]
    write(path, data)
    e = load_error(path)
    assert f"missing key {key!r}" in str(e)


def test_a_save_with_a_tampered_state(save):
    path, data = save
    vp = Game.load(path).S["VP"]
    data["state"][vp] += 10  # ten free victory points
    write(path, data)
    e = load_error(path)
    assert "#/state" in str(e)


def test_a_save_differing_only_above_the_decision_stack_loads(tmp_path):
    """What answered frames left in the decision stack's slots above its depth is no part
    of the game (a push clears the slot it takes): a save differing there loads, so a
    change in how the engine lays out its frames keeps older saves loading; a change in
    a live frame below the depth is refused."""
    g = Game(["marquise", "eyrie"], 6)
    while g.state[g.S["DEPTH"]] == 0:
        g.apply(g.legal_actions()[-1])
    path = tmp_path / "s.json"
    g.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    ff, frames, depth = g.consts["FRAME_FIELDS"], g.S["FRAMES"], g.state[g.S["DEPTH"]]
    assert depth < g.consts["MAX_FRAMES"]
    dead = frames + depth * ff + 2
    data["state"][dead] += 4
    write(path, data)
    assert Game.load(path).state[g.S["VP"]] == g.state[g.S["VP"]]
    assert depth > 0
    data["state"][frames + (depth - 1) * ff + 2] += 1  # the live top frame
    write(path, data)
    assert "#/state" in str(load_error(path))


def test_a_save_with_a_truncated_state(save):
    path, data = save
    data["state"] = data["state"][:-3]
    write(path, data)
    load_error(path)


def test_a_save_with_an_illegal_action_in_its_history(save):
    path, data = save
    g = Game(data["factions"], data["seed"])
    for a in data["actions"][:10]:
        g.apply(a)
    illegal = next(a for a in range(g.space.size) if a not in g.legal_actions())
    data["actions"][10] = illegal
    write(path, data)
    e = load_error(path)
    assert "#/actions/10" in str(e)


@pytest.mark.parametrize("actions", [[-1], [10**30], ["clearing 1"], [1.0], [True], "0,1"])
def test_a_save_with_actions_that_are_not_action_indexes(save, actions):
    path, data = save
    data["actions"] = actions
    write(path, data)
    load_error(path)


def test_a_save_with_another_format(save):
    path, data = save
    data["format"] = 99
    write(path, data)
    load_error(path)


def test_a_save_of_another_bundle_is_save_bundle(save):
    path, data = save
    data["bundle"] = "0123456789abcdef"
    write(path, data)
    e = load_error(path, code="SAVE-BUNDLE")
    assert resolve().hash in str(e)


def test_a_save_loaded_with_another_bundle_is_save_bundle(save):
    path, _ = save
    other = resolve([os.path.join(os.path.dirname(__file__), "..", "examples", "homebrew-map")],
                    map_id="thicket")
    load_error(path, code="SAVE-BUNDLE", bundle=other, pure=True)


@pytest.mark.parametrize("factions", [["marquise", "cats"], ["marquise"], ["eyrie", "eyrie"],
                                      [1, 2], [], "marquise,eyrie"])
def test_a_save_with_bad_factions_is_save_corrupt(save, factions):
    path, data = save
    data["factions"] = factions
    write(path, data)
    load_error(path)


@pytest.mark.parametrize("seed", ["6", None, 6.5])
def test_a_save_with_a_bad_seed_is_save_corrupt(save, seed):
    path, data = save
    data["seed"] = seed
    write(path, data)
    load_error(path)


def test_a_save_with_swapped_seats_is_save_corrupt(save):
    path, data = save
    data["factions"] = list(reversed(data["factions"]))
    write(path, data)
    load_error(path)


def test_a_missing_save_file(tmp_path):
    load_error(tmp_path / "nope.json")


def test_save_errors_are_rootlaw_errors_the_cli_reports():
    assert issubclass(SaveError, RootlawError)
    assert SaveError("x").code == "SAVE-CORRUPT"


# ---------------------------------------------------------------------- observation


def test_observation_hides_the_other_hand(new_game):
    g = played(past_setup(new_game(seed=8)), 10)
    hands = [g.hand(s) for s in range(g.num_players)]
    assert all(hands), "both players should hold cards for this test"
    for seat in range(g.num_players):
        obs = g.observation(seat)
        assert obs["seat"] == seat
        json.dumps(obs)  # plain data
        for q, p in enumerate(obs["players"]):
            assert p["faction"] == g.factions[q]
            assert p["hand_size"] == len(hands[q])
            if q == seat:
                assert p["hand"] == hands[q]
            else:
                assert p["hand"] is None


def test_observation_does_not_depend_on_the_other_hand(new_game):
    # Swap a card of seat 1's hand with a different card from the deck: seat 0's view
    # must not change (nothing in it reveals the hidden hand or the deck order).
    g = past_setup(new_game(seed=8))
    S, N = g.S, g.consts["N"]
    defs = g._core_module.tables.table
    off = g._core_module.tables.table_layout.offsets["CARD_DEF"]
    loc = [g.state[S["CARD_LOC"] + i] for i in range(N)]
    in_hand = [i for i in range(N) if loc[i] == 8 + 1]
    deck = [g.state[S["DECK"] + k] for k in range(g.state[S["DECK_LEN"]])]
    i = in_hand[0]
    k, j = next((k, j) for k, j in enumerate(deck) if defs[off + j] != defs[off + i])
    h = g.clone()
    h.state[S["CARD_LOC"] + i], h.state[S["CARD_LOC"] + j] = 0, 8 + 1
    h.state[S["DECK"] + k] = i
    assert h.hand(1) != g.hand(1) and len(h.hand(1)) == len(g.hand(1))
    assert h.observation(0) == g.observation(0)
    assert h.observation(1) != g.observation(1)


def test_observation_shows_public_dominance_information(new_game):
    """Law 3.3.1 / 3.3.3 / 5.1.3: activated dominance, the available dominance cards and
    cards removed from the game are public; every seat sees them alike."""
    g = past_setup(new_game(seed=8))
    obs = g.observation(0)
    assert sorted(obs["removed"]) == sorted(
        ["bird-dominance", "fox-dominance", "mouse-dominance", "rabbit-dominance"])
    assert obs["available_dominance"] == []
    assert all(p["dominance"] is None and p["play_area"] == [] for p in obs["players"])
    sc.move_card(g, "mouse-dominance", 4, prefer=(2,))
    sc.move_card(g, "fox-dominance", 8 + 0 + g.consts["P"], prefer=(2,))
    g.state[g.S["DOMINANCE"] + 0] = g.names["cards"].index("fox-dominance")
    for seat in (0, 1):
        obs = g.observation(seat)
        assert obs["available_dominance"] == ["mouse-dominance"]
        assert obs["players"][0]["dominance"] == "fox-dominance"
        assert obs["players"][0]["play_area"] == ["fox-dominance"]


@pytest.mark.parametrize("call", [
    lambda g: g.observation(5), lambda g: g.observation(-1), lambda g: g.hand(9),
    lambda g: g.columns(True), lambda g: g.ruler("99"), lambda g: g.notation(10**9),
])
def test_api_misuse_is_a_rootlaw_error(new_game, call):
    """The Python API answers bad seats, clearings and action numbers with a coded
    RootlawError, not an IndexError or a silent empty answer."""
    with pytest.raises(RootlawError):
        call(new_game())


@pytest.mark.parametrize("seed", ["x", 2**70, -(2**64), 1.5, True, None])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises(RootlawError, match="VALUE-INVALID"):
        Game(["marquise", "eyrie"], seed)


@pytest.mark.parametrize("seed", [0, -1, 2**63 - 1, -(2**63)])
def test_any_64_bit_seed_plays(seed):
    g = Game(["marquise", "eyrie"], seed)
    assert g.playout(seed, 50) > 0


# ---------------------------------------------------------------- observation vectors


def test_observation_vector_has_a_fixed_layout(new_game):
    g = played(past_setup(new_game(seed=8)), 10)
    lay = g.observation_layout
    spans = sorted(lay.values())
    assert spans[0][0] == 0
    assert all(a + n == b for (a, n), (b, _) in zip(spans, spans[1:], strict=False))
    size = spans[-1][0] + spans[-1][1]
    assert len(g.observation_vector(0)) == len(g.observation_vector(1)) == size


def field(g, seat, name):
    off, n = g.observation_layout[name]
    return list(g.observation_vector(seat)[off:off + n])


def test_observation_vector_agrees_with_the_readable_observation(new_game):
    g = played(past_setup(new_game(seed=8)), 10)
    K = g.consts["K"]
    for seat in (0, 1):
        obs = g.observation(seat)
        other = 1 - seat
        # Players are listed from the observing seat on.
        assert field(g, seat, "vp")[:2] == [g.scores[seat], g.scores[other]]
        assert field(g, seat, "hand_size")[:2] == [len(g.hand(seat)), len(g.hand(other))]
        hand = field(g, seat, "hand")
        assert sum(hand) == len(obs["players"][seat]["hand"])
        for card in obs["players"][seat]["hand"]:
            assert hand[g.names["cards"].index(card)] >= 1
        assert len(hand) == K
        assert sum(field(g, seat, "discard")) == len(obs["discard"])
        assert field(g, seat, "deck_size") == [obs["deck_size"]]
        assert field(g, seat, "seat") == [seat]


def test_observation_vector_does_not_depend_on_the_other_hand(new_game):
    # As test_observation_does_not_depend_on_the_other_hand, for the vector.
    g = past_setup(new_game(seed=8))
    S, N = g.S, g.consts["N"]
    defs = g.card_defs
    loc = [g.state[S["CARD_LOC"] + i] for i in range(N)]
    i = next(i for i in range(N) if loc[i] == 8 + 1)
    deck = [g.state[S["DECK"] + k] for k in range(g.state[S["DECK_LEN"]])]
    k, j = next((k, j) for k, j in enumerate(deck) if defs[j] != defs[i])
    h = g.clone()
    h.state[S["CARD_LOC"] + i], h.state[S["CARD_LOC"] + j] = 0, 8 + 1
    h.state[S["DECK"] + k] = i
    assert h.observation_vector(0) == g.observation_vector(0)
    assert h.observation_vector(1) != g.observation_vector(1)
