"""Play a game decision by decision, print a readable log, write a JSON-lines log.

A JSON-lines log has a header line (bundle, factions, seed), one line per decision
(turn, phase, seat, faction, what was asked, action index, notation, scores after it)
and a result line.
It is written atomically when the game ends; ``replay_log`` replays and checks it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from rootlaw.generator.build import write_atomic
from rootlaw.spec import Bundle

from .agents import RandomAgent
from .errors import RootlawError
from .game import MAX_DECISIONS, Game


def play_game(bundle: Bundle, factions: list[str], seed: int, *, out: TextIO | None = None,
              log_path: str | None = None, pure: bool | None = None,
              agents: list | None = None, max_decisions: int = MAX_DECISIONS) -> Game:
    """Play one game with random agents (seeded by the game seed).  A game that has not
    ended after max_decisions stops there without a winner (content that never ends,
    e.g. a homebrew map with no way to score, must not hang the caller)."""
    g = Game(factions, seed, bundle=bundle, pure=pure)
    if out is None and log_path is None and agents is None:
        g.playout(seed, max_decisions)  # the fast path: the whole game inside the core
        return g
    agents = agents or [RandomAgent(seed)] * len(factions)
    # The log is the same whichever core played it, so it names none.
    lines = [json.dumps({"type": "header", "bundle": bundle.hash, "factions": factions,
                         "seed": seed})]
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
        # An interrupt names what it asks about ("done" to an ambush reads differently).
        shown = f"{text} ({asked})" if asked in g.names["frames"] else text
        if out and phase != "setup" and turn != last_turn:
            print(f"-- turn {turn}: {g.factions[current]}", file=out)
            last_turn = turn
        g.apply(a)
        if out:
            print(f"  [{phase}] {g.factions[seat]}: {shown}   "
                  f"(vp {'-'.join(str(v) for v in g.scores)})", file=out)
        lines.append(json.dumps({"type": "decision", "i": len(g.history) - 1, "turn": turn,
                                 "phase": phase, "seat": seat, "faction": g.factions[seat],
                                 "decision": asked, "action": a, "notation": text,
                                 "vp": g.scores}))
    lines.append(json.dumps({"type": "result", "winner": g.winner_faction, "vp": g.scores,
                             "turns": g.turn, "decisions": len(g.history),
                             "stopped": not g.is_over}))
    if log_path:
        write_atomic(Path(log_path), "\n".join(lines) + "\n")
    return g


def replay_log(path: Path, bundle: Bundle) -> Game:
    """Replay a JSON-lines log; raise a located error where it stops matching."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RootlawError(f"cannot read: {e}", code="LOG-INVALID", where=str(path)) from None
    g = None
    result = None
    result_line = 0
    for n, raw in enumerate(text.splitlines(), 1):
        where = f"{path}:{n}"
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError as e:
            raise RootlawError(f"not JSON: {e.msg}", code="LOG-INVALID", where=where) from None
        kind = rec.get("type") if isinstance(rec, dict) else None
        if kind == "header":
            if rec.get("bundle") != bundle.hash:
                raise RootlawError(f"log is for bundle {rec.get('bundle')}, this is "
                                   f"{bundle.hash}", code="LOG-BUNDLE", where=where)
            factions, seed = rec.get("factions"), rec.get("seed")
            if not (isinstance(factions, list) and factions
                    and all(isinstance(f, str) for f in factions)) or type(seed) is not int:
                raise RootlawError("the header needs 'factions' (a list of ids) and 'seed' "
                                   "(an integer)", code="LOG-INVALID", where=where)
            try:
                g = Game(factions, seed, bundle=bundle)
            except RootlawError as e:
                raise RootlawError(e.message, code="LOG-INVALID", where=where) from None
        elif kind == "decision":
            if g is None:
                raise RootlawError("decision before the header", code="LOG-INVALID", where=where)
            legal = g.legal()
            if rec.get("notation") not in legal or legal[rec["notation"]] != rec.get("action"):
                raise RootlawError(f"{rec.get('notation')!r} is not legal here",
                                   code="LOG-DIVERGED", where=where)
            g.apply(rec["action"])
            if rec.get("vp") != g.scores:
                raise RootlawError(f"scores {g.scores} differ from the log's {rec.get('vp')}",
                                   code="LOG-DIVERGED", where=where)
        elif kind == "result":
            result, result_line = rec, n
        else:
            raise RootlawError(f"unknown record type {kind!r}", code="LOG-INVALID", where=where)
    if g is None:
        raise RootlawError("no header line", code="LOG-INVALID", where=str(path))
    if result is None:
        raise RootlawError("the log ends before the game does (no result line)",
                           code="LOG-INVALID", where=str(path))
    # A game stopped at the decision cap ends without a winner; say so, or it is cut.
    if g.is_over == bool(result.get("stopped")):
        raise RootlawError("the result says the game " +
                           ("was stopped, but it is over" if g.is_over else
                            "is over, but it goes on after the last decision"),
                           code="LOG-DIVERGED" if g.is_over else "LOG-INVALID",
                           where=f"{path}:{result_line}")
    if result.get("winner") != g.winner_faction:
        raise RootlawError(f"winner {g.winner_faction} differs from the log's "
                           f"{result.get('winner')}", code="LOG-DIVERGED",
                           where=f"{path}:{result_line}")
    return g
