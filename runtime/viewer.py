"""The replay viewer: one self-contained HTML file that steps through a logged game.

``rootlaw replay LOG.jsonl --html replay.html`` replays and checks the log, draws the
board after every decision (``render.picture``) and writes a page that shows it with
the decision log and keyboard navigation.  The page fetches nothing: its script, style
and data are inline and its Content-Security-Policy forbids any request.

To stay small, the page holds the map once and each distinct part of the picture once
(a clearing's pieces, a panel, the header ...); every position lists only the parts
that changed since the one before; the whole is gzipped.  The browser joins the parts
exactly as ``render.compose`` does, so position k shows the same SVG as ``render_svg``
of the game after k decisions.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
from collections.abc import Sequence
from html import escape
from importlib import resources
from pathlib import Path

from rootlaw.spec import Bundle

from .errors import RootlawError
from .events import asked_words, decision_words, describe, redact
from .game import Game
from .log import replay_log
from .render import faction_colour, open_tag, picture, place

TEMPLATE = "viewer.html.in"  # the page, with placeholders for the title and data
DATA_START = '<script type="text/x-rootlaw-replay" id="data">'
DATA_MARK = "<!--ROOTLAW-DATA-->"


def replay_data(final: Game, view: int | None = None) -> dict:
    """Everything the page needs, replaying ``final``'s decisions from the start, as
    ``view`` saw the game: None, the table (public facts only: no hand drawn, no
    face-down card named, in the board, the log or the events), or a seat (its hand and
    what it was shown too).  A page holds one view: nothing another audience alone saw
    is in its data."""
    g = Game(final.factions, final.seed, bundle=final.bundle)
    if view is not None:
        g._seat(view)
    g.record_events()
    parts: list[str] = []
    index: dict[str, int] = {}

    def part(svg: str) -> int:
        i = index.get(svg)
        if i is None:
            i = index[svg] = len(parts)
            parts.append(svg)
        return i

    pic = picture(g, view)
    slots = [p.slot for p in pic.parts]
    shown: list[tuple[int, str]] = [(-1, "")] * len(slots)
    steps: list[list] = []
    log: list[list] = []

    def snapshot() -> None:
        p = picture(g, view)
        assert [q.slot for q in p.parts] == slots  # the same seats and clearings all game
        changes: list = []
        for i, q in enumerate(p.parts):
            now = (part(q.svg), place(q))
            if now != shown[i]:
                shown[i] = now
                changes += [i, now[0], now[1]]
        steps.append([part(open_tag(p.width, p.height)), changes])

    snapshot()
    for a in final.history:
        turn, phase, seat, asked = g.turn, g.phase, g.to_play, g.decision or ""
        words = decision_words(asked, g.notation(a), phase)
        g.apply(a)
        happened = g.take_events()
        log.append([turn, phase, seat, asked_words(asked), redact(g, words, happened, view),
                    [describe(g, e, view) for e in happened]])
        snapshot()
    specs = [g.bundle.faction(f) for f in g.factions]
    return {
        "title": f"{' vs '.join(f.name for f in specs)}, seed {g.seed}",
        "view": "public view" if view is None else f"seen by {specs[view].name}",
        "factions": [{"id": f.id, "name": f.name, "colour": faction_colour(f)} for f in specs],
        "static": pic.static,
        "overlay": pic.overlay,
        "slots": slots,
        "parts": parts,
        "steps": steps,
        "log": log,
        "result": {"winner": g.winner_faction, "vp": g.scores, "over": g.is_over},
    }


def page(data: dict) -> str:
    """The HTML page for replay data.  The data goes in gzipped and base64-encoded (a
    tenth of its size; the browser inflates it with DecompressionStream), with a zero
    timestamp so that the same game gives the same bytes."""
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    b64 = base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")
    blob = "\n".join(b64[i:i + 120] for i in range(0, len(b64), 120))
    title = escape(data["title"])
    return template.replace("<!--ROOTLAW-TITLE-->", title).replace(DATA_MARK, blob)


def page_data(html: str) -> dict:
    """The replay data inside a page (the inverse of ``page``, for tests and tools)."""
    start = html.index(DATA_START) + len(DATA_START)
    blob = html[start:html.index("</script>", start)]
    return json.loads(gzip.decompress(base64.b64decode("".join(blob.split()))))


def replay_html(log_path: Path, bundle: Bundle | None = None, view: int | None = None,
                **content) -> str:
    """Replay and check a JSON-lines log, then draw the page that steps through it as
    ``view`` saw it (None: the table; a seat) (``content``: the packs, map_id and
    deck_id options of ``replay_log``)."""
    return page(replay_data(replay_log(log_path, bundle, **content), view))


def position(bundle: Bundle | None = None, *, save: Path | None = None,
             log: Path | None = None, at: int | None = None,
             packs: Sequence[str | os.PathLike] | None = None, map_id: str | None = None,
             deck_id: str | None = None) -> Game:
    """A saved or logged game (checked by replaying it), after ``at`` of its decisions
    (default: all of them).  Its content is the one the save or log records (``packs``:
    folders to look for its packs in first), or ``bundle`` when given."""
    if save is not None and log is not None:
        raise RootlawError("give a save file or --log, not both", code="VALUE-INVALID")
    if save is not None:
        final = Game.load(save, bundle=bundle, packs=packs, map_id=map_id, deck_id=deck_id)
    elif log is not None:
        final = replay_log(log, bundle, packs=packs, map_id=map_id, deck_id=deck_id)
    else:
        raise RootlawError("nothing to draw: give a save file or --log", code="VALUE-INVALID")
    if at is None:
        return final
    n = len(final.history)
    if not 0 <= at <= n:
        raise RootlawError(f"--at {at}: the game has decisions 0..{n}", code="VALUE-INVALID",
                           where=str(save or log))
    g = Game(final.factions, final.seed, bundle=final.bundle)
    for a in final.history[:at]:
        g.apply(a)
    return g
