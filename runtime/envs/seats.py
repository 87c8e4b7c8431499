"""Who can sit at the table: the bundle a set of packs gives, its static game facts,
and every faction mix the bundle allows (for the environments and their tests).

The mixes are derived from the bundle, never listed by hand, so a faction or a player
count added in content reaches every environment and every environment test.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from pathlib import Path

from rootlaw.spec import Bundle, resolve

from ..game import Game, GameInfo, base_bundle

_BUNDLES: dict[tuple[str, ...], Bundle] = {}
_INFOS: dict[str, GameInfo] = {}


def bundle_for(packs: Iterable[str | os.PathLike] = ()) -> Bundle:
    """The base content plus ``packs`` (resolved once per process and pack list)."""
    key = tuple(str(Path(p)) for p in packs)
    if not key:
        return base_bundle()
    if key not in _BUNDLES:
        _BUNDLES[key] = resolve(list(key))
    return _BUNDLES[key]


def game_info(bundle: Bundle) -> GameInfo:
    """``Game.info`` for a bundle, without a caller-chosen seating."""
    info = _INFOS.get(bundle.hash)
    if info is None:
        ids = [f.id for f in bundle.factions]
        info = _INFOS[bundle.hash] = Game(ids[:2], 0, bundle=bundle).info
    return info


def faction_mixes(bundle: Bundle | None = None, *, seatings: bool = True,
                  ) -> list[tuple[str, ...]]:
    """Every faction mix of the bundle, 2 to max players.

    ``seatings=True`` lists every seating (seat order matters: seat 0 is the first
    agent); ``seatings=False`` one seating per set of factions, in the bundle's order.
    """
    info = game_info(bundle or base_bundle())
    pick = itertools.permutations if seatings else itertools.combinations
    top = min(info.max_players, len(info.factions))
    return [mix for n in range(info.min_players, top + 1) for mix in pick(info.factions, n)]
