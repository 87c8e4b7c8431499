"""Pictures of a game (runtime/render.py, runtime/layout.py) and `rootlaw render`.

The SVG is checked as XML: every clearing of the map, every piece on it with its count,
building slots, ruins, rulers, each faction's tracks, supply, roles and columns, and the
hand only for the seat that may see it.  Homebrew content (a map without positions, a
faction without a colour) draws with no code.  Same game, same bytes.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rootlaw.runtime import Game, RandomAgent
from rootlaw.runtime import render as rr
from rootlaw.runtime.cli import main
from rootlaw.runtime.layout import clearing_positions
from rootlaw.runtime.render import compose, faction_colour, picture, render_svg
from rootlaw.spec import BASE_PACK, SpecError, load_file, resolve

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "homebrew-map"
OTTERS = Path(__file__).resolve().parent / "data" / "content" / "good-faction.json"
SVG = "{http://www.w3.org/2000/svg}"


def played(factions=("marquise", "eyrie"), seed=7, decisions=150, bundle=None, pure=None):
    g = Game(list(factions), seed, bundle=bundle, pure=pure)
    agent = RandomAgent(seed)
    while len(g.history) < decisions and not g.is_over:
        g.apply(agent.choose(g, g.legal_actions()))
    return g


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def slot(root: ET.Element, name: str) -> ET.Element:
    found = [e for e in root.iter(f"{SVG}g") if e.get("id") == name]
    assert len(found) == 1, name
    return found[0]


def texts(e: ET.Element) -> list[str]:
    return [t.text or "" for t in e.iter(f"{SVG}text")]


@pytest.fixture(scope="module")
def mid():
    # Every faction of the base bundle seated, so each one's board is drawn.
    return played(("marquise", "eyrie", "alliance"))


# ---------------------------------------------------------------------- the map


def test_the_svg_is_xml_with_every_clearing_path_river_and_forest(mid):
    root = parse(render_svg(mid))
    assert root.tag == f"{SVG}svg"
    m = mid.bundle.map
    clearings = by_class(root, "clearing")
    assert sorted(int(c.get("id").split("-")[1]) for c in clearings) == \
        sorted(c.id for c in m.clearings)
    for c in clearings:
        spec = next(x for x in m.clearings if f"clearing-{x.id}" == c.get("id"))
        assert c.get("data-suit") == spec.suit and int(c.get("data-slots")) == spec.slots
    assert len(by_class(root, "path")) == len(m.paths)
    assert len(by_class(root, "river")) == len(m.rivers)
    assert sorted(f.get("data-id") for f in by_class(root, "forest")) == \
        sorted(f.id for f in m.forests)
    # Each clearing's number is written on the board.
    labels = {int(e.get("data-clearing")): texts(e) for e in by_class(root, "label")}
    assert labels == {c.id: [str(c.id)] for c in m.clearings}


def test_the_base_map_has_positions_corners_as_numbered():
    # The map data's numbering: corners 1 top-left, 2 top-right, 3 bottom-right, 4 bottom-left.
    pos = clearing_positions(resolve().map)
    assert pos[1][0] < 50 and pos[1][1] < 50
    assert pos[2][0] > 50 and pos[2][1] < 50
    assert pos[3][0] > 50 and pos[3][1] > 50
    assert pos[4][0] < 50 and pos[4][1] > 50


def _without_positions(m):
    return m.model_copy(update={"clearings": [c.model_copy(update={"position": None})
                                              for c in m.clearings]})


@pytest.mark.parametrize("which", ["thicket", "autumn-stripped"])
def test_a_map_without_positions_is_laid_out_from_its_paths(which):
    m = (resolve([EXAMPLE], map_id="thicket").map if which == "thicket"
         else _without_positions(resolve().map))
    assert all(c.position is None for c in m.clearings)
    pos = clearing_positions(m)
    assert sorted(pos) == sorted(c.id for c in m.clearings)
    assert pos == clearing_positions(m)  # no randomness
    # The opposite corners are pinned to the board's corners.
    (a, b), (c, d) = m.opposite_corners[:2]
    assert pos[a] == (0, 0) and pos[b] == (100, 100)
    assert pos[c] == (100, 0) and pos[d] == (0, 100)
    for cid, (x, y) in pos.items():
        assert 0 <= x <= 100 and 0 <= y <= 100, cid
    # No two clearings overlap in a picture.
    ids = sorted(pos)
    closest = min(math.dist(pos[i], pos[j]) for i in ids for j in ids if i < j)
    assert closest >= 12, closest
    # Clearings joined by a path sit closer than the farthest pairs: the graph shows.
    linked = max(math.dist(pos[i], pos[j]) for i, j in m.paths)
    assert linked < max(math.dist(pos[i], pos[j]) for i in ids for j in ids)


def test_the_layout_is_the_same_in_another_process():
    code = ("from rootlaw.spec import resolve; from rootlaw.runtime.layout import "
            f"clearing_positions; print(clearing_positions(resolve([{str(EXAMPLE)!r}], "
            "map_id='thicket').map))")
    env = dict(os.environ, PYTHONHASHSEED="987")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=120).stdout.strip()
    assert out == str(clearing_positions(resolve([EXAMPLE], map_id="thicket").map))


def test_a_homebrew_map_draws_with_no_code():
    b = resolve([EXAMPLE], map_id="thicket")
    g = played(bundle=b, decisions=60, pure=True)
    root = parse(render_svg(g))
    assert len(by_class(root, "clearing")) == len(b.map.clearings) == 9
    assert render_svg(g) == render_svg(g.clone())


# ---------------------------------------------------------------------- pieces


def test_every_piece_on_the_map_is_drawn_with_its_count(mid):
    root = parse(render_svg(mid))
    owner = {name: f for f in mid.bundle.factions for name in f.pieces}
    total = 0
    for cid, row in mid.piece_counts().items():
        g = slot(root, f"c{cid}")
        warriors = sorted(int(texts(w)[0]) for w in by_class(g, "warrior"))
        want_w = sorted(n for p, n in row.items() if owner[p].pieces[p].kind == "warrior")
        assert warriors == want_w, cid
        buildings = sorted(b.find(f"{SVG}title").text for b in by_class(g, "building"))
        want_b = sorted(p.replace("-", " ") for p, n in row.items()
                        if owner[p].pieces[p].kind == "building" for _ in range(n))
        assert buildings == want_b, cid
        tokens = sorted(t.find(f"{SVG}title").text for t in by_class(g, "token"))
        want_t = sorted(f"{n} {p.replace('-', ' ')}" for p, n in row.items()
                        if owner[p].pieces[p].kind == "token")
        assert tokens == want_t, cid
        total += len(warriors) + len(buildings) + len(tokens)
    assert total > 10  # a mid-game board, not an empty one


def test_slots_show_buildings_ruins_and_open_spaces(mid):
    root = parse(render_svg(mid))
    ruins = mid.state[mid.S["RUINS"]:mid.S["RUINS"] + len(mid.bundle.map.clearings)]
    seen_ruin = False
    for i, c in enumerate(sorted(mid.bundle.map.clearings, key=lambda c: c.id)):
        g = slot(root, f"c{c.id}")
        n_ruin, n_open = len(by_class(g, "ruin")), len(by_class(g, "slot"))
        assert n_ruin == ruins[i], c.id
        assert len(by_class(g, "building")) + n_ruin + n_open == c.slots, c.id
        seen_ruin |= n_ruin > 0
    assert seen_ruin


def test_the_ruler_of_each_clearing_is_ringed_in_its_colour(mid):
    root = parse(render_svg(mid))
    colours = {f.id: faction_colour(f) for f in mid.bundle.factions}
    ruled = 0
    for c in mid.bundle.map.clearings:
        rings = by_class(slot(root, f"c{c.id}"), "ruler")
        who = mid.ruler(str(c.id))
        if who is None:
            assert rings == []
        else:
            ruled += 1
            assert [(r.get("data-faction"), r.get("stroke")) for r in rings] == \
                [(who, colours[who])]
    assert ruled > 0


def test_colour_distance_is_cielab_delta_e():
    assert rr.lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert rr.lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert rr.colour_distance("#000000", "#ffffff") == pytest.approx(100.0, abs=0.01)
    assert rr.colour_distance("#e9b91c", "#e9b91c") == 0.0


FACTION_COLOURS_TRIED = [*rr.SUIT_COLOURS.values(), *rr.SUIT_TINTS.values(), "#e9c020",
                         "#e07b22", "#2f6db5", "#68b653", "#7a5c9e", rr.INK, "#000000",
                         "#ffffff", "#808080", "#3a3530"]


@pytest.mark.parametrize("colour", FACTION_COLOURS_TRIED)
def test_a_faction_colour_is_kept_apart_from_every_suit_colour(colour):
    """Issue 15: a yellow faction's ring vanished into a rabbit clearing's yellow rim.
    Whatever a faction's colour, its outline (halo) is far, by CIELAB distance, from that
    colour; and every suit's rim and tint it can be drawn over is far from the halo or,
    for a colour near the ink (its halo white), from the colour itself."""
    halo = rr.halo_on(colour)
    assert rr.colour_distance(halo, colour) >= rr.SEPARATE
    for suit in rr.SUIT_COLOURS:
        for under in (rr.SUIT_COLOURS[suit], rr.SUIT_TINTS[suit]):
            assert max(rr.colour_distance(halo, under),
                       rr.colour_distance(colour, under)) >= rr.SEPARATE, (suit, under)
    if rr.colour_distance(colour, rr.SUIT_COLOURS["rabbit"]) < rr.SEPARATE:
        assert halo == rr.INK  # the case: a yellow kept apart by the ink


def _yellow_pack(tmp_path: Path, colour: str) -> Path:
    pack = tmp_path / "yellow"
    pack.mkdir()
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "yellow-marquise", "name": "A yellow Marquise", "version": "1",
        "requires": ["base"], "content": ["yellow.json"]}), encoding="utf-8")
    (pack / "yellow.json").write_text(json.dumps({
        "kind": "patch", "target": "faction:marquise", "description": "yellow",
        "patch": [{"op": "replace", "path": "/color", "value": colour}]}), encoding="utf-8")
    return pack


def test_a_faction_in_a_suits_colour_stays_readable_on_its_clearings(tmp_path):
    """The Marquise in the rabbit suit's own yellow: on each rabbit clearing it rules, its
    ring lies between the two edges of a halo far from both yellows, and each of its
    tokens has such a halo too."""
    rabbit = rr.SUIT_COLOURS["rabbit"]
    b = resolve([_yellow_pack(tmp_path, rabbit)])
    g = played(["marquise", "eyrie"], seed=7, decisions=150, bundle=b, pure=True)
    root = parse(render_svg(g))
    checked = tokens = 0
    for c in b.map.clearings:
        if c.suit != "rabbit" or g.ruler(str(c.id)) != "marquise":
            continue
        kids = list(slot(root, f"c{c.id}"))
        (ring,) = [e for e in kids if e.get("class") == "ruler"]
        halo = kids[kids.index(ring) - 1]  # drawn just under the ring
        assert halo.get("class") == "halo" and halo.get("r") == ring.get("r")
        assert ring.get("stroke") == rabbit
        assert rr.colour_distance(ring.get("stroke"), rabbit) < rr.SEPARATE  # the old case
        assert float(halo.get("stroke-width")) - float(ring.get("stroke-width")) >= 3
        assert rr.colour_distance(halo.get("stroke"), ring.get("stroke")) >= rr.SEPARATE
        assert rr.colour_distance(halo.get("stroke"), rabbit) >= rr.SEPARATE
        # The ring lies outside the rim (a 5-wide stroke at R) with its halo's edge.
        assert float(ring.get("r")) - float(halo.get("stroke-width")) / 2 >= rr.R + 2.5
        for t in by_class(slot(root, f"c{c.id}"), "token"):
            edge, face = t.findall(f"{SVG}rect")
            assert edge.get("class") == "halo" and face.get("stroke") == rabbit
            assert rr.colour_distance(edge.get("stroke"), rabbit) >= rr.SEPARATE
            assert float(edge.get("stroke-width")) > float(face.get("stroke-width"))
            tokens += 1
        checked += 1
    assert checked >= 2 and tokens >= 1


# ---------------------------------------------------------------------- faction boards


def test_tracks_uncover_one_space_per_piece_on_the_map(mid):
    root = parse(render_svg(mid))
    on_map: dict[str, int] = {}
    for row in mid.piece_counts().values():
        for p, n in row.items():
            on_map[p] = on_map.get(p, 0) + n
    tracks = 0
    for f in mid.bundle.factions:
        for name, p in f.pieces.items():
            if p.track is None:
                continue
            tracks += 1
            (t,) = [e for e in by_class(root, "track") if e.get("data-piece") == name]
            assert int(t.get("data-built")) == on_map.get(name, 0)
            # Covered spaces show the piece's letters (capitals for buildings, small for
            # tokens); uncovered ones their VP.
            spaces = max(p.count, len(p.track.vp), len(p.track.cost))
            marks = [s for s in texts(t) if s.isalpha() and len(s) <= 3]
            assert len(marks) == spaces - on_map.get(name, 0), name
    assert tracks >= 4


def test_the_supply_of_pieces_without_a_track_is_shown(mid):
    root = parse(render_svg(mid))
    sup = {e.get("data-piece"): int(e.get("data-left")) for e in by_class(root, "supply")}
    for f in mid.bundle.factions:
        for name, p in f.pieces.items():
            if p.track is None:
                i = mid.names["pieces"].index(name)
                assert sup[name] == mid.state[mid.S["SUPPLY"] + i], name


def test_roles_and_columns_with_their_cards(mid):
    root = parse(render_svg(mid))
    checked = 0
    for seat, fid in enumerate(mid.factions):
        f = mid.bundle.faction(fid)
        obs = mid.observation(seat)["players"][seat]
        for r in f.roles:
            (e,) = [x for x in by_class(root, "role") if x.get("data-role") == r.id]
            assert (e.get("data-state") == "held") == (obs["role"] == r.id)
            checked += 1
        for col, cards in mid.columns(seat).items():
            (e,) = [x for x in by_class(root, "column") if x.get("data-column") == col]
            assert sorted(c.get("data-card") for c in by_class(e, "card")) == sorted(cards)
            checked += 1
    assert checked >= 8
    assert any(by_class(e, "card") for e in by_class(root, "column"))


def test_the_hand_is_shown_only_to_its_seat(mid):
    public = parse(render_svg(mid))
    assert by_class(public, "hand") == []
    for seat in range(mid.num_players):
        root = parse(render_svg(mid, seat=seat))
        (hand,) = by_class(root, "hand")
        assert sorted(c.get("data-card") for c in by_class(hand, "card")) == \
            sorted(mid.hand(seat))
        # The panel sits in the seat's own part of the picture.
        assert by_class(slot(root, f"p{seat}-cards"), "hand") == [hand]


def test_scores_hand_sizes_and_what_is_decided_are_shown(mid):
    root = parse(render_svg(mid))
    for seat, fid in enumerate(mid.factions):
        words = " ".join(texts(slot(root, f"p{seat}-head")))
        assert f"{mid.scores[seat]} VP" in words
        assert f"hand {len(mid.hand(seat))}" in words
        assert mid.bundle.faction(fid).name in words
    header = " ".join(texts(slot(root, "header")))
    assert mid.bundle.faction(mid.factions[mid.current]).name in header
    assert mid.decision.replace("_", " ") in header
    assert f"decision {len(mid.history)}" in header


def test_a_battle_in_progress_is_marked():
    g = Game(["marquise", "eyrie"], 3)
    agent = RandomAgent(3)
    while not g.is_over and not g.state[g.S["B_STAGE"]]:
        g.apply(agent.choose(g, g.legal_actions()))
    assert not g.is_over
    at = g.names["clearings"][g.state[g.S["B_AT"]]]
    root = parse(render_svg(g))
    assert [c for c in mid_clearings(root) if by_class(slot(root, c), "battle")] == [f"c{at}"]
    assert f"battle in {at}" in " ".join(texts(slot(root, "header")))


def mid_clearings(root: ET.Element) -> list[str]:
    return [e.get("id") for e in root.iter(f"{SVG}g") if (e.get("id") or "").startswith("c")]


def test_the_end_of_a_game_names_the_winner():
    g = played(decisions=10**6)
    assert g.is_over
    header = " ".join(texts(slot(parse(render_svg(g)), "header")))
    assert f"{g.bundle.faction(g.winner_faction).name} wins" in header


# ---------------------------------------------------------------------- determinism


def test_same_game_same_bytes(mid, tmp_path):
    a = render_svg(mid)
    mid.save(tmp_path / "g.json")
    assert render_svg(Game.load(tmp_path / "g.json")) == a
    assert render_svg(mid.clone()) == a
    assert compose(picture(mid)) == a


def test_same_bytes_on_both_cores():
    a, b = played(pure=False), played(pure=True)
    assert render_svg(a) == render_svg(b)


def test_same_bytes_in_another_process(mid, tmp_path):
    mid.save(tmp_path / "g.json")
    env = dict(os.environ, PYTHONHASHSEED="4242")
    code = ("import sys; from rootlaw.runtime import Game; from rootlaw.runtime.render "
            "import render_svg; sys.stdout.write(render_svg(Game.load(sys.argv[1])))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "g.json")], env=env,
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert out == render_svg(mid)


# ---------------------------------------------------------------------- homebrew factions


def _otter_pack(tmp_path: Path, colour: str | None = None) -> Path:
    pack = tmp_path / "otters"
    pack.mkdir()
    data = json.loads(OTTERS.read_text(encoding="utf-8"))
    data.pop("$schema", None)
    if colour:
        data["color"] = colour
    (pack / "otters.json").write_text(json.dumps(data), encoding="utf-8")
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "otters", "name": "otters", "requires": ["base"],
        "content": ["otters.json"]}), encoding="utf-8")
    return pack


def test_a_homebrew_faction_draws_in_a_colour_of_its_own(tmp_path):
    b = resolve([_otter_pack(tmp_path)])
    otters = b.faction("test-otters")
    assert otters.color is None
    colour = faction_colour(otters)
    assert len(colour) == 7 and int(colour[1:], 16) >= 0
    assert colour == faction_colour(otters)  # derived from the id: stable
    assert colour not in {faction_colour(f) for f in b.factions if f.id != otters.id}
    g = played(["marquise", "test-otters"], seed=2, decisions=40, bundle=b, pure=True)
    root = parse(render_svg(g))
    mine = [e for e in by_class(root, "warrior")
            if e.find(f"{SVG}circle").get("fill") == colour]
    assert mine, "the otters' warriors are drawn in their colour"
    (head,) = [e for e in by_class(root, "panel-head")
               if e.get("data-faction") == "test-otters"]
    assert "Test Otters" in texts(head)


def test_an_activated_dominance_card_is_shown_once(tmp_path):
    # Dominance cards are out of two-player games (Law 5.1.3): three factions here.
    b = resolve([_otter_pack(tmp_path), EXAMPLE], map_id="thicket")
    g = Game(["marquise", "eyrie", "test-otters"], 3, bundle=b, pure=True)
    agent = RandomAgent(3)
    while not g.is_over and max(g.state[g.S["DOMINANCE"] + q] for q in range(3)) < 0:
        g.apply(agent.choose(g, g.legal_actions()))
    (seat,) = [q for q in range(3) if g.state[g.S["DOMINANCE"] + q] >= 0]
    card = g.observation(seat)["players"][seat]["dominance"]
    assert card in g.observation(seat)["players"][seat]["play_area"]
    root = parse(render_svg(g))
    panel = slot(root, f"p{seat}-cards")
    (row,) = by_class(panel, "dominance")
    assert [c.get("data-card") for c in by_class(row, "card")] == [card]
    assert [c.get("data-card") for c in by_class(panel, "card")].count(card) == 1


def test_a_faction_colour_from_the_spec_is_used(tmp_path):
    b = resolve([_otter_pack(tmp_path, "#12AB34")])
    assert faction_colour(b.faction("test-otters")) == "#12ab34"


def test_different_ids_get_different_colours():
    from rootlaw.spec.models import FactionSpec

    base = resolve().faction("eyrie").model_dump()
    colours = set()
    for fid in ("otters", "lizards", "moles", "crows", "badgers", "frogs"):
        colours.add(faction_colour(FactionSpec(**{**base, "id": fid, "color": None})))
    assert len(colours) == 6


# ---------------------------------------------------------------------- the drawing fields


def test_drawing_fields_do_not_change_the_bundle_hash(tmp_path):
    # Positions and colours draw the game; they are not rules: saves and logs stay valid.
    pack = tmp_path / "look"
    pack.mkdir()
    faction = json.loads((BASE_PACK / "eyrie.json").read_text(encoding="utf-8"))
    faction.pop("$schema")
    faction["color"] = "#000000"
    (pack / "eyrie.json").write_text(json.dumps(faction), encoding="utf-8")
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "look", "name": "look", "requires": ["base"],
        "content": ["eyrie.json"]}), encoding="utf-8")
    b = resolve([pack])
    assert b.faction("eyrie").color == "#000000"
    assert b.hash == resolve().hash
    m = resolve().map
    assert _without_positions(m).model_dump(mode="json", exclude={
        "clearings": {"__all__": {"position"}}}) == m.model_dump(mode="json", exclude={
            "clearings": {"__all__": {"position"}}})


@pytest.mark.parametrize("edit, pointer", [
    (lambda d: d["clearings"][0].update(position=[101, 5]), "/clearings/0/position/0"),
    (lambda d: d["clearings"][2].update(position=[5]), "/clearings/2/position"),
], ids=["off-the-board", "one-number"])
def test_a_bad_position_is_a_located_error(tmp_path, edit, pointer):
    data = json.loads((BASE_PACK / "autumn.json").read_text(encoding="utf-8"))
    data.pop("$schema")
    edit(data)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_file(path)
    (d,) = e.value.diagnostics
    assert d.pointer.startswith(pointer) and d.code and d.line, d


def test_a_bad_colour_is_a_located_error(tmp_path):
    data = json.loads(OTTERS.read_text(encoding="utf-8"))
    data.pop("$schema")
    data["color"] = "orange"
    path = tmp_path / "f.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_file(path)
    (d,) = e.value.diagnostics
    text = path.read_text(encoding="utf-8")
    line = text[:text.index('"color"')].count("\n") + 1
    assert (d.code, d.pointer, d.line) == ("VALUE-INVALID", "/color", line), d


# ---------------------------------------------------------------------- rootlaw render


def test_render_a_save(capsys, tmp_path, mid):
    mid.save(tmp_path / "g.json")
    out = tmp_path / "board.svg"
    assert main(["render", str(tmp_path / "g.json"), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_svg(mid)
    assert main(["render", str(tmp_path / "g.json"), "--seat", "1", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_svg(mid, seat=1)
    assert not list(tmp_path.glob(".*tmp*")) and not list(tmp_path.glob("*.tmp"))


def test_render_a_position_of_a_log(capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    assert main(["play", "--seed", "5", "--factions", "marquise,eyrie", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["render", "--log", str(log), "--at", "40"]) == 0
    svg = capsys.readouterr().out
    assert svg == render_svg(played(seed=5, decisions=40))
    assert "decision 40" in svg


@pytest.mark.parametrize("argv, code", [
    ([], "VALUE-INVALID"),
    (["--at", "99999"], "VALUE-INVALID"),
    (["--seat", "7"], "REF-UNDEF"),
], ids=["nothing-to-draw", "at-past-the-end", "no-such-seat"])
def test_render_errors_are_coded(capsys, tmp_path, mid, argv, code):
    mid.save(tmp_path / "g.json")
    save = [] if not argv else [str(tmp_path / "g.json")]
    assert main(["render", *save, *argv, "-o", str(tmp_path / "x.svg")]) == 1
    assert code in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()


def test_render_takes_a_save_or_a_log_not_both(capsys, tmp_path, mid):
    mid.save(tmp_path / "g.json")
    assert main(["render", str(tmp_path / "g.json"), "--log", str(tmp_path / "g.json")]) == 1
    err = capsys.readouterr().err
    assert "VALUE-INVALID" in err and "not both" in err


def test_render_a_corrupt_save_is_a_located_error(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1}', encoding="utf-8")
    assert main(["render", str(bad)]) == 1
    err = capsys.readouterr().err
    assert str(bad) in err and "SAVE-CORRUPT" in err
