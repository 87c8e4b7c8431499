"""Reach (Law 5.2): how much of the Woodland a table of factions contests.

Law 5.2.1 recommends a total reach for each player count so that the game is
interesting; Law 5.2.2 gives each faction's (a faction's ``reach`` in its content).
rootlaw warns about a table below the sum, it never forbids one: "adventurous players
are welcome to use any faction mix".
"""

from __future__ import annotations

from rootlaw.spec import Bundle

# Law 5.2.1: players -> the viable reach sum.
VIABLE_REACH = {2: 17, 3: 18, 4: 21, 5: 25, 6: 28}


def reach_warning(bundle: Bundle, factions: list[str]) -> str | None:
    """A warning when the seated factions' reach adds up to less than Law 5.2.1's
    viable sum for their number; None when it does not, or when a faction's reach is
    not known (nothing to judge by)."""
    specs = {f.id: f for f in bundle.factions}
    if any(f not in specs or specs[f].reach is None for f in factions):
        return None
    want = VIABLE_REACH.get(len(factions))
    total = sum(specs[f].reach or 0 for f in factions)
    if want is None or total >= want:
        return None
    parts = " + ".join(f"{f} {specs[f].reach}" for f in factions)
    return (f"the factions' reach adds up to {total} ({parts}), below the {want} Law 5.2.1 "
            f"recommends for {len(factions)} players: the game may be lopsided")
