"""Invariants checked after every decision of whole random games (both cores).

- pieces on the map + supply + out of the game = the faction's total (Law 1.5.1);
- every card is in exactly one place, the deck array holds exactly the deck cards;
- items in the supply + crafted items = the starting supply (Law 5.1.5);
- buildings never exceed a clearing's slots (Law 2.2.3); VP never negative;
- VP recorded in the log match the game at every decision (replay).
"""

from __future__ import annotations

import pytest

from rootlaw.runtime import Game, RandomAgent
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import play_game, replay_log


def check_invariants(g: Game) -> None:
    S, c = g.S, g.consts
    st = g.state
    t = g._core_module.tables
    tab, off = t.table, t.table_layout.offsets
    for pc in range(c["NP"]):
        on_map = sum(st[S["BOARD"] + cl * c["NP"] + pc] for cl in range(c["C"]))
        assert min(st[S["BOARD"] + cl * c["NP"] + pc] for cl in range(c["C"])) >= 0
        assert st[S["SUPPLY"] + pc] >= 0
        total = tab[off["PIECE_COUNT"] + pc]
        assert on_map + st[S["SUPPLY"] + pc] + st[S["OUT"] + pc] == total, g.names["pieces"][pc]
    locs = [st[S["CARD_LOC"] + i] for i in range(c["N"])]
    deck = [st[S["DECK"] + i] for i in range(st[S["DECK_LEN"]])]
    assert sorted(deck) == [i for i, x in enumerate(locs) if x == 0]
    max_loc = 8 + 2 * c["P"] + c["P"] * c["L"]
    assert all(0 <= x < max_loc and x not in (5, 6, 7) for x in locs)
    for i in range(c["I"]):
        crafted = sum(st[S["CRAFTED"] + p * c["I"] + i] for p in range(c["P"]))
        assert st[S["ITEMS"] + i] + crafted == tab[off["ITEM_SUPPLY"] + i]
    for cl in range(c["C"]):
        buildings = st[S["RUINS"] + cl] + sum(
            st[S["BOARD"] + cl * c["NP"] + pc] for pc in range(c["NP"])
            if tab[off["PIECE_KIND"] + pc] == 1)
        assert buildings <= tab[off["CLEARING_SLOTS"] + cl]
    assert all(v >= 0 for v in g.scores)
    # Short-supply placement and '?' payment owe nothing once their frame is closed.
    frames = [st[S["FRAMES"] + d * 4] for d in range(st[S["DEPTH"]])]
    if 7 not in frames:  # FR_PLACE
        assert all(st[S["PLACE_LEFT"] + cl] == 0 for cl in range(c["C"]))
    if 8 not in frames:  # FR_CRAFT_ANY
        assert st[S["CRAFT_ANY_LEFT"]] == 0


@pytest.mark.parametrize("seed", range(1, 13))
def test_invariants_hold_after_every_decision(seed, new_game):
    g = new_game(seed=seed)
    agent = RandomAgent(seed)
    check_invariants(g)
    while not g.is_over:
        g.apply(agent.choose(g, g.legal_actions()))
        check_invariants(g)
        assert g.legal_actions() or g.is_over  # never stuck without a winner


@pytest.mark.parametrize("seed", range(1, 4))
def test_vp_consistent_with_the_log(seed, tmp_path):
    path = tmp_path / "game.jsonl"
    g = play_game(base_bundle(), ["marquise", "eyrie"], seed, log_path=str(path))
    replayed = replay_log(path, base_bundle())  # checks VP after every decision
    assert replayed.scores == g.scores
