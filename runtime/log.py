"""Play a game decision by decision, print a readable log, write a JSON-lines log.

A JSON-lines log has a header line (format, bundle, the content it was played on: packs,
map and deck, see runtime/content.py; factions, seed), one line per decision
(turn, phase, seat, faction, what was asked, action index, notation, scores after it)
and a result line.
It is written atomically when the game ends; ``replay_log`` replays and checks it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rootlaw.generator.build import write_atomic
from rootlaw.spec import Bundle
from rootlaw.spec.jsonio import JsonInputError, read_json_lines

from . import content
from .agents import RandomAgent
from .errors import LogError, RootlawError
from .events import ALL, decision_words, describe, record, redact
from .game import MAX_DECISIONS, Game


def play_game(bundle: Bundle, factions: list[str], seed: int, *, out: TextIO | None = None,
              log_path: str | None = None, pure: bool | None = None,
              agents: list | None = None, max_decisions: int = MAX_DECISIONS,
              view: int | None | str = "all") -> Game:
    """Play one game with random agents (seeded by the game seed).  A game that has not
    ended after max_decisions stops there without a winner (content that never ends,
    e.g. a homebrew map with no way to score, must not hang the caller).

    ``out`` gets a readable log in a player's words: each decision, then what it set
    off (runtime/events.py), as ``view`` saw it: "all" (everything, hands included: the
    record of whoever runs the game), None (the table: no face-down card named) or a
    seat.  The JSON-lines log records every event whole, a card with who saw it."""
    g = Game(factions, seed, bundle=bundle, pure=pure)
    if out is None and log_path is None and agents is None:
        g.playout(seed, max_decisions)  # the fast path: the whole game inside the core
        return g
    agents = agents or [RandomAgent(seed)] * len(factions)
    g.record_events()
    # The log is the same whichever core played it, so it names none.
    lines = [json.dumps({"type": "header", "format": content.FORMAT, "bundle": bundle.hash,
                         **content.record(bundle), "factions": factions, "seed": seed})]
    if out:
        print(f"rootlaw game: {', '.join(factions)} seed {seed} "
              f"(core: {'compiled' if g.compiled else 'pure'}, bundle {bundle.hash})", file=out)
        print(f"first player: {g.factions[g._s('FIRST')]}", file=out)
    last_turn = None
    while not g.is_over and len(g.history) < max_decisions:
        legal = g.legal_actions()
        if not legal:
            raise RootlawError("no legal decision and no winner", code="ENGINE-STUCK")
        seat = g.to_play
        a = agents[seat].choose(g, legal)
        text = g.notation(a)
        turn, phase, current, asked = g.turn, g.phase, g.current, g.decision
        if out and phase != "setup" and turn != last_turn:
            print(turn_line(g, turn, current), file=out)  # the first turn (no event)
            last_turn = turn
        g.apply(a)
        happened = g.take_events()
        if out:
            said = decision_words(asked, text, phase)
            if view != "all":
                said = redact(g, said, happened, seat_of(view, g))
            print(f"  [{phase}] {g.factions[seat]}: {said}   "
                  f"(vp {'-'.join(str(v) for v in g.scores)})", file=out)
            for e in happened:
                if e.kind == "turn":  # a turn begins within this decision's automatic steps
                    print(turn_line(g, e.b, e.a), file=out)
                    last_turn = e.b
                else:
                    print(f"      {describe(g, e, seat_of(view, g))}", file=out)
        lines.append(json.dumps({"type": "decision", "i": len(g.history) - 1, "turn": turn,
                                 "phase": phase, "seat": seat, "faction": g.factions[seat],
                                 "decision": asked, "action": a, "notation": text,
                                 "vp": g.scores, "events": [record(g, e) for e in happened]}))
    lines.append(json.dumps({"type": "result", "winner": g.winner_faction, "vp": g.scores,
                             "turns": g.turn, "decisions": len(g.history),
                             "stopped": not g.is_over}))
    if log_path:
        write_atomic(Path(log_path), "\n".join(lines) + "\n", parents=False)
    return g


def turn_line(g: Game, turn: int, seat: int) -> str:
    """The header of a turn: its number and player, with where the player's cycles
    stand (its turn follows them)."""
    stages = ", ".join(f"{cy}: {stage}" for cy, stage in g.cycles(seat).items())
    return f"-- turn {turn}: {g.factions[seat]}{f' ({stages})' if stages else ''}"


def seat_of(view: int | None | str, g: Game) -> int | None:
    """The audience of a view: "all" (every card named), None (the table) or a seat."""
    return None if view is None else (ALL if view == "all" else int(view))


def replay_log(path: Path, bundle: Bundle | None = None, *,
               packs: Sequence[str | os.PathLike] | None = None, map_id: str | None = None,
               deck_id: str | None = None) -> Game:
    """Replay a JSON-lines log; raise a LogError at the line where it stops matching.

    The content is the one the header records (its packs found again: ``packs`` are
    folders to look in first; see runtime/content.py), or ``bundle`` when given.  The log
    is read as a stream (no cap on its length, 64 KiB per line); every value is checked
    for its type before it is used, so a log however broken gives LOG-INVALID (not a
    log), LOG-PACK-MISSING or LOG-PACK-CHANGED (its content is not here), LOG-BUNDLE
    (another bundle's) or LOG-DIVERGED (the rules disagree)."""
    opts = content.Options.of(packs, map_id, deck_id)
    g: Game | None = None
    result: dict | None = None
    result_line = 0
    try:
        for n, rec in read_json_lines(path):
            where = f"{path}:{n}"
            if not isinstance(rec, dict):
                raise LogError("a record is a JSON object", where=where)
            kind = rec.get("type")
            if result is not None:
                raise LogError("a record after the result line", where=where)
            if kind == "header":
                g = _start(rec, bundle, opts, g, where)
            elif kind == "decision":
                if g is None:
                    raise LogError("decision before the header", where=where)
                _replay_decision(g, rec, where)
            elif kind == "result":
                result, result_line = rec, n
            else:
                shown = kind if isinstance(kind, str) or kind is None else type(kind).__name__
                raise LogError(f"unknown record type {shown!r}", where=where)
    except JsonInputError as e:
        d = e.diagnostic
        raise LogError(f"{d.code}: {d.message}",
                       where=str(path) + (f":{d.line}" if d.line else "")) from None
    if g is None:
        raise LogError("no header line", where=str(path))
    if result is None:
        raise LogError("the log ends before the game does (no result line)", where=str(path))
    at = f"{path}:{result_line}"
    stopped = result.get("stopped", False)
    if not isinstance(stopped, bool):
        raise LogError("'stopped' must be true or false", where=at)
    # A game stopped at the decision cap ends without a winner; say so, or it is cut.
    if g.is_over == stopped:
        if g.is_over:
            raise LogError("the result says the game was stopped, but it is over",
                           code="LOG-DIVERGED", where=at)
        raise LogError("the result says the game is over, but it goes on after the last "
                       "decision", where=at)
    if result.get("winner") != g.winner_faction:
        raise LogError(f"winner {g.winner_faction} differs from the log's "
                       f"{_shown(result.get('winner'))}", code="LOG-DIVERGED", where=at)
    return g


def _shown(v: object) -> str:
    """A value from a log, for a message (never megabytes of it)."""
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def _start(rec: dict, bundle: Bundle | None, opts: content.Options, g: Game | None,
           where: str) -> Game:
    if g is not None:
        raise LogError("a second header line", where=where)

    def fail(message: str, place: str) -> None:
        raise LogError(message, where=place)

    fmt = rec.get("format", 1)  # format 1 headers had no 'format'
    if type(fmt) is not int or fmt not in (1, content.FORMAT):
        raise LogError(f"unsupported log format {_shown(fmt)} (this rootlaw reads formats 1 "
                       f"and {content.FORMAT})", where=where)
    expected = rec.get("bundle")
    if not isinstance(expected, str):
        raise LogError("the header needs 'bundle' (a bundle hash)", where=where)
    if bundle is None and fmt == 1:
        bundle = content.legacy_bundle(expected, opts, "LOG", LogError, where)
    elif bundle is None:
        recs, m, d = content.parse_record(rec, fail, lambda key: f"{where} (header {key!r})")
        bundle = content.bundle_of(recs, m, d, expected, opts, "LOG", LogError, where)
    if expected != bundle.hash:
        raise LogError(f"log is for bundle {_shown(expected)}, this is {bundle.hash}",
                       code="LOG-BUNDLE", where=where)
    factions, seed = rec.get("factions"), rec.get("seed")
    if not (isinstance(factions, list) and factions
            and all(isinstance(f, str) for f in factions)) or type(seed) is not int:
        raise LogError("the header needs 'factions' (a list of ids) and 'seed' (an integer)",
                       where=where)
    try:
        g = Game(factions, seed, bundle=bundle)
    except RootlawError as e:
        raise LogError(e.message, where=where) from None
    g.record_events()  # a decision's events are checked against the log's
    return g


def _replay_decision(g: Game, rec: dict, where: str) -> None:
    notation, action = rec.get("notation"), rec.get("action")
    if not isinstance(notation, str) or type(action) is not int:
        raise LogError("a decision needs 'notation' (a string) and 'action' (an integer)",
                       where=where)
    legal = {} if g.is_over else g.legal()
    if legal.get(notation) != action:
        raise LogError(f"{_shown(notation)} is not legal here", code="LOG-DIVERGED",
                       where=where)
    g.apply(action)
    if rec.get("vp") != g.scores:
        raise LogError(f"scores {g.scores} differ from the log's {_shown(rec.get('vp'))}",
                       code="LOG-DIVERGED", where=where)
    happened = [record(g, e) for e in g.take_events()]
    if "events" in rec and rec["events"] != happened:  # logs before events have none
        raise LogError(f"what happened differs from the log: {_shown(happened)} here, "
                       f"{_shown(rec['events'])} in the log", code="LOG-DIVERGED", where=where)
