"""What happened, per audience (runtime/events.py): the core's events agree with the
state they change, the logs record them, and the readable log says them in a player's
words, as its audience saw them (Law 1.2)."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest

from rootlaw.runtime import Game, RandomAgent
from rootlaw.runtime.cli import main
from rootlaw.runtime.errors import LogError
from rootlaw.runtime.events import describe, record, sees_card
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import play_game, replay_log


@pytest.mark.parametrize("factions", [("marquise", "eyrie", "alliance"),
                                      ("alliance", "marquise"), ("eyrie", "marquise")])
def test_events_agree_with_the_state(factions, core_kind):
    """Every VP gained is a 'scored' event, every piece placed or removed an event, every
    card that moved a 'card' event from where it was to where it is."""
    g = Game(list(factions), 3, pure=core_kind == "pure")
    g.record_events()
    agent = RandomAgent(3)
    kinds = Counter()
    S, C, NP, N = g.S, g.consts["C"], g.consts["NP"], g.consts["N"]
    while not g.is_over and len(g.history) < 1200:
        vp = g.scores
        board = list(g.state[S["BOARD"]:S["BOARD"] + C * NP])
        locs = list(g.state[S["CARD_LOC"]:S["CARD_LOC"] + N])
        g.apply(agent.choose(g, g.legal_actions()))
        events = g.take_events()
        kinds.update(e.kind for e in events)
        gained = [0] * g.num_players
        for e in events:
            if e.kind == "scored":
                gained[e.a] += e.b
            elif e.kind == "placed":
                board[e.b * NP + e.c] += e.d
            elif e.kind == "removed":
                board[e.a * NP + e.b] -= 1
            elif e.kind == "moved":
                board[e.a * NP + e.c] -= e.d
                board[e.b * NP + e.c] += e.d
            elif e.kind == "paid":
                board[e.b * NP + e.c] -= 1
            elif e.kind == "card":
                assert locs[e.a] == e.b, (e, locs[e.a])
                locs[e.a] = e.c
            elif e.kind == "reshuffled":
                for i in range(N):
                    if locs[i] == g.consts["LOC_DISCARD"]:
                        locs[i] = g.consts["LOC_DECK"]
        assert [v + d for v, d in zip(vp, gained, strict=True)] == g.scores
        assert board == list(g.state[S["BOARD"]:S["BOARD"] + C * NP])
        assert locs == list(g.state[S["CARD_LOC"]:S["CARD_LOC"] + N])
        for e in events:  # every event can be said and recorded
            assert describe(g, e, None) and describe(g, e, 0) and record(g, e)["event"]
    for kind in ("card", "placed", "removed", "scored", "roll", "hits", "turn", "moved"):
        assert kinds[kind] > 0, kind


def test_a_game_not_recording_reports_nothing():
    g = Game(["marquise", "eyrie"], 1)
    g.playout(1, 200)
    assert g.take_events() == []
    g.record_events()
    g.playout(2, 50)
    assert g.take_events()
    g.record_events(False)
    g.playout(3, 50)
    assert g.take_events() == []


def test_the_readable_log_speaks_a_player_s_words(capsys):
    """No internal names (frame kinds, step ops), 'done' said as what it declines."""
    assert main(["play", "--factions", "marquise,eyrie,alliance", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    for word in ("zone_give", "zone_pay", "take_actions", "setup_home", "phase_end",
                 "(ambush)", "(march)", ": done"):
        assert word not in out, word
    for said in ("chooses clearing", "places keep in clearing", "gives ", "pays with",
                 "plays no ambush", "draws ", "scores "):
        assert said in out, said


def test_the_readable_log_per_audience():
    """--view public names no card that went face down unseen; a seat's view names its
    own; 'all' (the default) names every card."""
    logs = {}
    for view in ("all", None, 2):
        out = io.StringIO()
        play_game(base_bundle(), ["marquise", "eyrie", "alliance"], 7, out=out, view=view)
        logs[view] = out.getvalue()
    assert "mobilize a card" in logs[None] and "mobilize cobbler" not in logs[None]
    assert "mobilize cobbler" in logs[2] and "mobilize cobbler" in logs["all"]
    assert "alliance draws a card" in logs[None]
    assert "gives a card to the alliance's supporters" in logs[None]
    assert logs[None].count("\n") == logs["all"].count("\n")


def test_the_json_log_records_events_and_replay_checks_them(tmp_path):
    log = tmp_path / "g.jsonl"
    assert main(["play", "--factions", "marquise,eyrie,alliance", "--seed", "5",
                 "--log", str(log)]) == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    recs = [json.loads(x) for x in lines]
    decisions = [r for r in recs if r["type"] == "decision"]
    assert all(isinstance(r["events"], list) for r in decisions)
    cards = [e for r in decisions for e in r["events"] if e["event"] == "card"]
    assert any(e["seen_by"] == "all" for e in cards)
    assert any(isinstance(e["seen_by"], list) for e in cards)
    assert replay_log(log).is_over
    # An event changed: the log no longer replays to what it says happened.
    k = next(i for i, r in enumerate(recs) if r.get("events"))
    recs[k]["events"][0] = {"event": "won", "faction": "marquise", "dominance": False}
    log.write_text("\n".join(json.dumps(r) for r in recs) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as e:
        replay_log(log)
    assert e.value.code == "LOG-DIVERGED" and f":{k + 1}" in str(e.value)


def test_a_card_given_face_down_is_seen_by_its_giver_and_taker_only():
    g = Game(["marquise", "eyrie", "alliance"], 7)
    g.record_events()
    agent = RandomAgent(7)
    found = 0
    while not g.is_over and found < 3:
        asked = g.decision
        g.apply(agent.choose(g, g.legal_actions()))
        for e in g.take_events():
            if e.kind == "card" and asked == "zone_give":
                giver, holder = e.b - g.consts["LOC_HAND"], 2
                assert sees_card(g, e, giver) and sees_card(g, e, holder)
                assert not sees_card(g, e, None)
                assert not sees_card(g, e, 3 - giver - holder)
                found += 1
    assert found == 3
