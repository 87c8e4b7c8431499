"""The differential test: today's games, decision by decision (tests/differential).

1,000 seeded random games of each of six base tables (two and three players, several
seatings), recorded before the rules became programs (issue 12): at every decision the
legal actions by notation and the game after it, as the Law sees it, must be what the
recorded engine gave.  Regenerate the traces only for an intended change of the rules
(``python tests/differential/traces.py record``) and say why in the commit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "differential"))
import traces  # noqa: E402


@pytest.mark.parametrize("table", traces.TABLES, ids="-".join)
def test_today_s_games_are_played_again(table):
    rows = traces.path_of(table).read_text(encoding="ascii").splitlines()
    assert len(rows) == traces.GAMES
    for row in rows:
        seed, n, *marks = row.split()
        got_n, got = traces.play(table, int(seed))
        if got != marks or got_n != int(n):
            at = next((i for i, (x, y) in enumerate(zip(got, marks, strict=False)) if x != y),
                      min(len(got), len(marks)))
            pytest.fail(f"{'-'.join(table)} seed {seed}: the game differs from the recorded "
                        f"one within decisions {at * traces.CHECK + 1}.."
                        f"{(at + 1) * traces.CHECK} ({got_n} decisions now, {n} recorded)")
