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

_BUNDLES: dict[tuple, Bundle] = {}
_INFOS: dict[str, GameInfo] = {}


def bundle_for(packs: Iterable[str | os.PathLike] = (), map_id: str | None = None,
               deck_id: str | None = None) -> Bundle:
    """The base content plus ``packs``, with a pack's map or deck chosen as ``rootlaw play
    --map/--deck`` does (resolved once per process and choice)."""
    paths = tuple(str(Path(p)) for p in packs)
    if not paths and map_id is None and deck_id is None:
        return base_bundle()
    key = (paths, map_id, deck_id)
    if key not in _BUNDLES:
        _BUNDLES[key] = resolve(list(paths), map_id=map_id, deck_id=deck_id)
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
