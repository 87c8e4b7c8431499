"""The Keepers in Iron (Law 15) written from the Law as data only (examples/keepers-in-
iron: a faction file and a library of programs of the language's parts), played through
the engine's own setup and turn flow, in several seat orders, on both cores.  The rules
the test packs pin down part by part (tests/test_recover.py, test_second_choice.py,
test_prized_trophies.py, test_two_faces.py, test_carry.py, test_forest_places.py,
test_retinue.py) are checked here as this one faction plays them; the pack's scenarios
check each rule of its README (tests/test_examples.py).  Autumn suits: fox 1 6 8 12,
rabbit 3 4 5 10, mouse 2 7 9 11; corners 1 2 3 4, diagonally 1-3 and 2-4; edge clearings
all but 10, 11 and 12."""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from rootlaw.generator import build as gbuild
from rootlaw.runtime import position as pos
from rootlaw.runtime.conformance import check_bundle, invariant_violations
from rootlaw.runtime.game import Game
from rootlaw.spec import resolve
from rootlaw.spec.validate import validate

PACK = Path(__file__).resolve().parent.parent / "examples" / "keepers-in-iron"
ME = "keepers"
TYPES = ("figure", "tablet", "jewelry")
FACE_DOWN = [f"{t}-relic" for t in TYPES]
RELICS = [*FACE_DOWN, *(f"{t}-{v}" for t in TYPES for v in (1, 2, 3))]
ORDERS = [("marquise", "keepers"), ("keepers", "eyrie"), ("eyrie", "keepers", "marquise"),
          ("alliance", "marquise", "keepers", "eyrie")]
CORES = pytest.mark.parametrize("pure", [True, False], ids=["pure", "compiled"])


@pytest.fixture(scope="module")
def bundle():
    b = resolve([PACK])
    gbuild.compile_core(b)
    return b


def test_the_pack_is_clean():
    assert [d for d in validate([PACK]).diagnostics if d.severity != "info"] == []


def forest_relics(g) -> dict[str, int]:
    return {fo: sum(row.get(r, 0) for r in RELICS) for fo, row in g.forest_counts().items()}


def paths(g) -> list[list[int]]:
    return [list(x) for x in g.bundle.map.paths]


def home(g, seat: int) -> str | None:
    """A seat's home clearing (Law 6.3.1, 15.3.3: the corner it took), or None."""
    c = g.state[g.S["HOME"] + seat]
    return g.names["clearings"][c] if c >= 0 else None


def setup(g, rng: random.Random) -> None:
    """Through the setup flow, every decision taken at random."""
    while g.phase == "setup":
        g.apply(rng.choice(sorted(g.legal())))


@pytest.mark.parametrize("order", ORDERS)
@CORES
def test_setup_as_the_law_says(bundle, order, pure):
    """Law 15.3: four warriors in a free corner (opposite a starting corner where one is
    free), four in an edge clearing next to it; every relic in a forest, one in each
    forest touching the Keepers' warriors and the rest dealt evenly among the others; a
    Faithful Retainer in each column."""
    for seed in (1, 2, 3):
        g = Game(list(order), seed, bundle=bundle, pure=pure)
        setup(g, random.Random(seed))
        me = pos.seat_of(g, ME)
        mine = {c: row["keeper"] for c, row in g.piece_counts().items() if row.get("keeper")}
        corner = [c for c in mine if c in {"1", "2", "3", "4"}]
        assert sorted(mine.values()) == [4, 4] and len(corner) == 1, mine
        edge = next(c for c in mine if c not in corner)
        assert edge not in {"10", "11", "12"}
        assert [int(corner[0]), int(edge)] in paths(g) or \
            [int(edge), int(corner[0])] in paths(g)
        others = {home(g, q) for q in range(g.num_players) if q != me}
        assert home(g, me) == corner[0] and corner[0] not in others
        near = {f.id for f in g.bundle.map.forests if {int(c) for c in mine} & set(f.clearings)}
        counts = forest_relics(g)
        assert sum(counts.values()) == 12
        assert all(counts[f] == 1 for f in near), (counts, near)
        far = sorted(counts[f] for f in counts if f not in near)
        assert far and far[-1] - far[0] <= 1 and far[0] >= 1, counts
        assert all(pos.supply(g, r) == 0 for r in FACE_DOWN)
        assert g.columns(me) == {
            "move": ["faithful-retainer"], "battle-then-delve": ["faithful-retainer"],
            "move-or-recover": ["faithful-retainer"]}
        assert not list(invariant_violations(g))


def test_the_corner_is_opposite_a_starting_corner_where_one_is_free(bundle):
    """The Marquise's keep in each corner in turn: the Keepers' only corner is the one
    diagonally opposite (Law 15.3.3, "if possible")."""
    opposite = {"1": "3", "3": "1", "2": "4", "4": "2"}
    for keep in ("1", "2", "3", "4"):
        g = Game(["marquise", "keepers"], 1, bundle=bundle, pure=True)
        g.apply(f"clearing {keep}")
        while g.decision != "keepers_corner":
            g.apply(sorted(g.legal())[0])
        assert sorted(g.legal()) == [f"clearing {opposite[keep]}"]


@pytest.mark.parametrize("order", ORDERS[:3])
@CORES
def test_games_end_with_a_winner_and_the_invariants_hold(bundle, order, pure):
    """Random play, seeded (as rootlaw play --games): every game ends with a winner; the
    invariants hold after each decision (the relics' and the waystations' counts
    included); the Keepers' rules come up (encamp, delve, recover, trophies)."""
    seen: Counter = Counter()
    for seed in range(1, 7 if pure else 13):
        g = Game(list(order), seed, bundle=bundle, pure=pure)
        g.record_events()
        rng = random.Random(seed)
        n = 0
        while not g.is_over and n < 6000:
            acts = sorted(g.legal())
            a = rng.choice(acts)
            seen[a.split()[0]] += 1
            g.apply(a)
            n += 1
            if pure and n % 7 == 0:
                assert not list(invariant_violations(g)), (seed, n)
        seen.update(e.kind for e in g.take_events())
        assert g.is_over and g.winner_faction is not None, (seed, n)
    assert seen["encamp"] and seen["delve"] and seen["moved_from_forest"]


def test_the_conformance_kit_holds(bundle):
    """rootlaw check --pack examples/keepers-in-iron: invariants after every decision of
    random games (every faction of the bundle seated), both cores agree, the scenarios
    pass."""
    rep = check_bundle(bundle, games=4, agreement=2, scenario_paths=[PACK / "scenarios"])
    assert rep.ok, rep.failures[:5]
    assert rep.winners == 4 and rep.scenarios >= 12


def test_a_tuck_into_a_column_the_faction_lacks_is_found_at_its_use(tmp_path):
    """Law 15.3.5's tuck, written into a misspelt column: a located PROGRAM-USE with the
    closest column's name."""
    pack = tmp_path / "keepers-in-iron"
    shutil.copytree(PACK, pack)
    lib = json.loads((pack / "relics.json").read_text())
    lib["programs"]["tuck_retainers"]["do"] = [{"op": "tuck", "into": ["moves"]}]
    (pack / "relics.json").write_text(json.dumps(lib))
    found = [d for d in validate([pack], []).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["PROGRAM-USE"], found
    assert "column 'moves'" in found[0].message and "did you mean 'move'" in found[0].message
    assert found[0].pointer == "/setup/4"
