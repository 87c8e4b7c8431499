"""The replay viewer page (runtime/viewer.py): `rootlaw replay LOG --html FILE`.

Checked without a browser here: the page holds every position of the game, joined as
``render.compose`` joins a picture, so position k is exactly ``render_svg`` after k
decisions; it loads nothing from anywhere; it is small; same log, same bytes.
tests/test_browser.py opens it in Chromium.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rootlaw.runtime import Game
from rootlaw.runtime.cli import main
from rootlaw.runtime.events import asked_words, decision_words, sees_card
from rootlaw.runtime.game import base_bundle
from rootlaw.runtime.log import replay_log
from rootlaw.runtime.render import render_svg
from rootlaw.runtime.viewer import page, page_data, replay_data, replay_html

GOLDEN = Path(__file__).resolve().parent / "golden"


def join(data: dict, k: int) -> str:
    """Position k of the page's data, joined the way the page's script joins it."""
    part = [0] * len(data["slots"])
    at = ["0 0"] * len(data["slots"])
    for _, changes in data["steps"][:k + 1]:
        for i in range(0, len(changes), 3):
            part[changes[i]], at[changes[i]] = changes[i + 1], changes[i + 2]
    open_ = data["steps"][k][0]
    body = "".join(f'<g id="{s}" transform="translate({a})">{data["parts"][p]}</g>'
                   for s, p, a in zip(data["slots"], part, at, strict=True))
    return data["parts"][open_] + data["static"] + body + data["overlay"] + "</svg>\n"


@pytest.fixture(scope="module")
def seed7():
    """The seed-7 golden log, its replayed game, its page data and its page."""
    log = GOLDEN / "marquise-eyrie-seed7.jsonl"
    final = replay_log(log, base_bundle())
    data = replay_data(final)
    return log, final, data, page(data)


def test_every_position_is_the_picture_of_the_game_after_that_many_decisions(seed7):
    _, final, data, _ = seed7
    assert len(data["steps"]) == len(final.history) + 1
    g = Game(final.factions, final.seed)
    for k in range(len(final.history) + 1):
        assert join(data, k) == render_svg(g), f"position {k}"
        if k < len(final.history):
            g.apply(final.history[k])


def test_the_log_lists_who_decided_what_and_the_notation(seed7):
    log, final, data, _ = seed7

    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    decisions = [r for r in records if r["type"] == "decision"]
    assert [e[:3] for e in data["log"]] == [[r["turn"], r["phase"], r["seat"]]
                                            for r in decisions]
    # In a player's words: what is asked, what is decided, what it set off.
    assert [e[3] for e in data["log"]] == [asked_words(r["decision"]) for r in decisions]
    assert [e[4] for e in data["log"]] == [decision_words(r["decision"], r["notation"],
                                                          r["phase"]) for r in decisions]
    assert [len(e[5]) for e in data["log"]] == [len(r["events"]) for r in decisions]
    assert data["view"] == "public view"
    result = records[-1]
    assert data["result"] == {"winner": result["winner"], "vp": result["vp"], "over": True}
    assert [f["id"] for f in data["factions"]] == final.factions


def test_the_page_round_trips_its_data(seed7):
    _, _, data, html = seed7
    assert page_data(html) == data


def test_the_page_loads_nothing(seed7):
    _, _, _, html = seed7
    # A Content-Security-Policy that allows no request at all, and nothing to request.
    assert re.search(r"""http-equiv="Content-Security-Policy"\s+content="default-src 'none';""",
                     html)
    assert not re.search(r"""\b(src|href)\s*=""", html, re.I)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert not re.search(r"https?://", html)  # the SVG namespace is inside the gzipped data
    for svg_part in page_data(html)["parts"] + [page_data(html)["static"]]:
        assert not re.search(r"""(href|src)\s*=|url\(|@import""", svg_part)


def test_same_log_same_bytes(seed7):
    log, _, _, html = seed7
    assert replay_html(log, base_bundle()) == html


def test_the_page_stays_small(seed7):
    # 225 decisions: the map is stored once, each distinct part of the picture once, and
    # the whole gzipped (about 50 KiB; every position drawn in full would be 7 MiB).
    _, final, data, html = seed7
    assert len(html.encode()) < 80 * 1024
    full = sum(len(join(data, k)) for k in range(0, len(final.history) + 1, 25)) * 25
    assert len(html.encode()) * 50 < full


def test_replay_html_writes_the_page(capsys, tmp_path, seed7):
    log, _, _, html = seed7
    out = tmp_path / "replay.html"
    assert main(["replay", str(log), "--html", str(out)]) == 0
    said = capsys.readouterr().out
    assert "replays to the same end" in said and f"wrote {out}" in said
    assert out.read_text(encoding="utf-8") == html
    assert sorted(p.name for p in tmp_path.iterdir()) == ["replay.html"]  # no temp files


def test_replay_html_of_a_diverging_log_writes_nothing(capsys, tmp_path):
    text = (GOLDEN / "marquise-eyrie-seed7.jsonl").read_text(encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(text.replace('"vp": [0, 0]', '"vp": [0, 9]', 1), encoding="utf-8")
    out = tmp_path / "replay.html"
    assert main(["replay", str(bad), "--html", str(out)]) == 1
    assert "LOG-DIVERGED" in capsys.readouterr().err
    assert not out.exists()


# ------------------------------------------------------------------ views (Law 1.2)


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """A three-player game (the Alliance puts cards face down, and others give it cards
    face down), logged, and its public and Alliance pages."""
    log = tmp_path_factory.mktemp("three") / "g.jsonl"
    assert main(["play", "--factions", "marquise,eyrie,alliance", "--seed", "7",
                 "--log", str(log)]) == 0
    final = replay_log(log, base_bundle())
    return log, final, replay_data(final), replay_data(final, 2)


def test_the_public_view_names_no_face_down_card(three):
    """A card that went face down unseen by the table (mobilized, given to the stack,
    drawn) is named nowhere in the public page's entry for that decision; the seat that
    holds it sees its name."""
    _, final, public, alliance = three
    g = Game(final.factions, final.seed)
    g.record_events()
    hidden_moves = 0
    for k, a in enumerate(final.history):
        g.apply(a)
        events = g.take_events()
        unseen = {g.names["cards"][g.card_defs[e.a]] for e in events
                  if e.kind == "card" and not sees_card(g, e, None)}
        seen = {g.names["cards"][g.card_defs[e.a]] for e in events
                if e.kind == "card" and sees_card(g, e, None)}
        text = " ".join([public["log"][k][4], *public["log"][k][5]])
        for card in unseen - seen:
            hidden_moves += 1
            assert card not in text.split(), (k, card, text)
    assert hidden_moves > 50
    words = [e[4] for e in public["log"]]
    assert any(w == "mobilize a card" for w in words)
    assert not any(w.startswith("mobilize ") and w != "mobilize a card" for w in words)
    mine = [e[4] for e in alliance["log"]]
    assert any(w.startswith("mobilize ") and w != "mobilize a card" for w in mine)
    assert public["view"] == "public view" and alliance["view"] == "seen by Woodland Alliance"


def test_the_public_board_shows_no_hand_and_a_seat_view_its_own(three):
    _, final, public, alliance = three
    g = Game(final.factions, final.seed)
    for a in final.history[:40]:
        g.apply(a)
    assert join(public, 40) == render_svg(g)
    assert join(alliance, 40) == render_svg(g, 2)
    assert join(public, 40) != join(alliance, 40)


def test_replay_html_takes_a_view(capsys, tmp_path, three):
    log, _, public, alliance = three
    out = tmp_path / "a.html"
    assert main(["replay", str(log), "--html", str(out), "--view", "alliance"]) == 0
    assert page_data(out.read_text(encoding="utf-8")) == alliance
    assert main(["replay", str(log), "--html", str(out)]) == 0
    assert page_data(out.read_text(encoding="utf-8")) == public
    rc = main(["replay", str(log), "--html", str(out), "--view", "all"])
    assert rc == 1 and "VALUE-INVALID" in capsys.readouterr().err
