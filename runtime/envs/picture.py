"""The board as a picture for ``render()``: text now, the SVG renderer when it exists.

"ansi" is a short text of the public state (no hand contents), built here; "human"
prints that text to stdout and returns None (what "human" means to Gymnasium and
PettingZoo: shown to a person, nothing returned).

"svg" is the board drawing of ``rootlaw.runtime.render`` (``render_svg(game)``: the public
view, no hand shown).  A mode is offered (``render_modes``) only when the renderer has its
function, so the environments' own checks never ask for a picture nobody can draw; an
"rgb_array" mode would need a rasteriser, which rootlaw does not depend on.
"""

from __future__ import annotations

import importlib

_HOOKS = {"svg": "render_svg"}


def _renderer():
    try:
        return importlib.import_module("rootlaw.runtime.render")
    except ImportError:
        return None


def render_modes() -> list[str]:
    """The modes the environments accept and list in their metadata (the same list)."""
    mod = _renderer()
    return ["human", "ansi"] + [m for m, fn in _HOOKS.items()
                                if mod is not None and hasattr(mod, fn)]


def render(game, mode: str | None):
    """The picture of ``game`` in ``mode`` (None: no picture)."""
    if mode is None:
        return None
    if mode == "ansi":
        return board_text(game)
    if mode == "human":
        print(board_text(game), flush=True)
        return None
    mod = _renderer()
    fn = getattr(mod, _HOOKS.get(mode, ""), None) if mod is not None else None
    if fn is None:
        raise ValueError(f"render mode {mode!r} is not available (available: "
                         f"{', '.join(render_modes())})")
    return fn(game)


def board_text(game) -> str:
    """Turn, scores, hand sizes, what is asked, and the pieces in each clearing."""
    obs = game.observation(0)
    lines = [f"turn {game.turn} {game.phase}"
             + (f", over: winner {game.winner_faction or 'none'}" if game.is_over else
                f", {game.factions[game.to_play]} to play ({game.decision})")
             + f", decision {len(game.history)}, deck {obs['deck_size']}"]
    for p in obs["players"]:
        lines.append(f"  {p['faction']}: {p['vp']} vp, {p['hand_size']} cards"
                     + (f", dominance {p['dominance']}" if p["dominance"] else ""))
    for clearing, pieces in obs["board"].items():
        if pieces:
            ruler = game.ruler(clearing)
            lines.append(f"  {clearing:>3}: " + " ".join(f"{k}x{v}" for k, v in pieces.items())
                         + (f"  (ruled by {ruler})" if ruler else ""))
    return "\n".join(lines)
