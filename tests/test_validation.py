"""`rootlaw validate`: the semantic checks, their locations, the formats and exit codes.

Each kind of broken content has a small fixture under tests/data/semantics (single
documents) or tests/data/packs (bundles); each test asserts the code, the file, the
JSON pointer, the line (found by searching the fixture's own text, so the oracle does
not depend on the loader's line scanner) and the exit code of `rootlaw validate`.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import herons_pack

from rootlaw.runtime.cli import main
from rootlaw.spec import BASE_PACK, SpecError, resolve
from rootlaw.spec.semantics import CHECKS, checks_markdown
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
SEM = DATA / "semantics"
PACKS = DATA / "packs"
EXAMPLE = ROOT / "examples" / "homebrew-map"
DOC = ROOT / "docs" / "validation.md"


def line_of(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    assert text.count(needle) == 1, f"{needle!r} must occur once in {path}"
    return text[: text.index(needle)].count("\n") + 1


def run(capsys, *args) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def findings(*paths, packs=()) -> list:
    return validate(list(paths), list(packs)).diagnostics


# (fixture, [(code, pointer, a needle on the finding's line, or the line)]): one kind of
# broken content each
DOCUMENTS = [
    # Programs (docs/language.md): names their parts give, and what the engine can offer.
    ("program-ref.json", [("PROGRAM-REF", "/programs/stash/do/2/box", '"$boxes"'),
                          ("PROGRAM-REF", "/programs/perch/do/0/clearing/has", '"$roost"')]),
    ("program-shape.json", [("PROGRAM-SHAPE", "/programs/perch/verb", '"mobilize"'),
                            ("PROGRAM-SHAPE", "/programs/wade/do/0", '{"op": "discard"}'),
                            ("PROGRAM-SHAPE", "/programs/wade/do/1",
                             '{"op": "remove", "piece": "warrior"}'),
                            ("PROGRAM-SHAPE", "/programs/fish/verb", '"move"'),
                            ("PROGRAM-SHAPE", "/programs/fish/do/1",
                             '{"op": "choose", "card": {"from": "hand"}}\n'),
                            # A content verb is one action type of the bundle: one
                            # shape, one word without '-'; a 'replace' chooses its piece
                            # with a clearing alone, once a program.
                            ("PROGRAM-SHAPE", "/programs/gobble/verb",
                             '"swallow",\n      "do": [{"card"'),
                            ("PROGRAM-SHAPE", "/programs/snap/verb", '"snap-up"'),
                            ("PROGRAM-SHAPE", "/programs/snap/do/1", '"pieces": "enemy"'),
                            ("PROGRAM-SHAPE", "/programs/snap/do/2", '"pieces": "warrior"'),
                            ("PROGRAM-SHAPE", "/programs/snap/do/2", '"pieces": "warrior"')]),
    ("map-disconnected.json", [("MAP-DISCONNECTED", "/clearings/2/id", '{"id": 3,')]),
    ("map-no-corner.json", [("MAP-NO-CORNER", "/clearings", '"clearings": [\n')]),
    ("map-opposite-empty.json", [("MAP-OPPOSITE", "/opposite_corners", '"opposite_corners"')]),
    ("map-opposite-missing.json", [("KEY-MISSING", "/opposite_corners", 1)]),  # its object
    ("map-opposite-not-corner.json", [("MAP-OPPOSITE", "/opposite_corners/1/1", "[2, 6]"),
                                      ("MAP-OPPOSITE", "/clearings/3/corner", '{"id": 4,')]),
    ("map-slots-none.json", [("MAP-SLOTS-NONE", "/clearings/5/slots", '"slots": 0')]),
    ("map-ruin-slot.json", [("MAP-RUIN-SLOT", "/clearings/4/ruin", '{"id": 5,')]),
    ("map-forest-small.json", [("MAP-FOREST", "/forests/2/clearings", '"clearings": [6]')]),
    ("map-river-path.json", [("MAP-RIVER-PATH", "/rivers/0", "[6, 5]")]),
    ("map-link-dup.json", [("MAP-LINK-DUP", "/paths/5", "[6, 5]")]),
    ("map-forest-id-dup.json", [("ID-DUP", "/forests/2/id", '{"id": "1_2_5", "clearings": '
                                                             '[1, 2, 5]}\n')]),
    ("setup-home-twice.json", [("SETUP-HOME-TWICE", "/setup/1", "setup_home_corner")]),
    ("setup-no-home.json", [("SETUP-NO-HOME", "/setup/0", "setup_buildings_near_home")]),
    ("step-setup-only.json", [("STEP-SETUP-ONLY", "/turn/birdsong/1",
                               "setup_home_corner")]),
    # A program whose filter reads the home (opposite_home), with no home taken before.
    ("setup-no-home-program.json", [("SETUP-NO-HOME", "/setup/0",
                                     "setup_warriors_everywhere")]),
    ("track-short.json", [("TRACK-LENGTH", "/pieces/nest/track/cost", '"cost": [0, 1, 2]')]),
    ("track-long.json", [("TRACK-LENGTH", "/pieces/nest/track/vp", '"vp": [0, 1, 2, 3, 4]')]),
    ("track-draw-at.json", [("TRACK-DRAW-AT", "/pieces/nest/track/draw_at/1", '"draw_at"')]),
    ("track-missing.json", [("TRACK-MISSING", "/turn/daylight/1/menu/2/buildings/0",
                             '"action": "build"')]),
    ("piece-kind.json", [("PIECE-KIND", "/turn/daylight/1/menu/1/building",
                          '"recruit_all", "building": "reed"')]),
    ("piece-kind-track.json", [("PIECE-KIND", "/pieces/heron-warrior/track",
                                '"heron-warrior": {')]),
    # Zones, boxes and tokens from a track (Law 8): each a defect of clean-insurgent.json.
    ("token-track-short.json", [("TRACK-LENGTH", "/pieces/ripple/track/cost",
                                 '"cost": [1, 1, 2]')]),
    ("zone-undef.json", [("REF-UNDEF", "/turn/daylight/0/menu/1/zone", '"fiends"')]),
    ("box-undef.json", [("REF-UNDEF", "/turn/evening/0/count/box", '"captain"')]),
    ("per-clearing-zero.json", [("VALUE-INVALID", "/pieces/ripple/per_clearing",
                                 '"per_clearing": 0')]),
    # Found by fuzzing: a warrior with a per_clearing limit moved past it in every game.
    ("per-clearing-warrior.json", [("PIECE-KIND", "/pieces/otter-warrior/per_clearing",
                                    '"per_clearing": 3')]),
    ("revolt-no-suit.json", [("PIECE-SUIT", "/turn/birdsong/0/menu/0/buildings/1",
                              '"mouse-lodge"], "box": "captains"},\n        {"action": "spread"')]),
    ("spread-no-cost.json", [("TRACK-MISSING", "/turn/birdsong/0/menu/1/token",
                              '"action": "spread"')]),
    # A step names a program as a menu entry does: its uses' checks, located at the step.
    ("step-piece-kind.json", [("PIECE-KIND", "/turn/evening/0/bonus_buildings/1",
                               '"bonus_buildings": ["nest", "reed"]')]),
    ("step-track-missing.json", [("TRACK-MISSING", "/turn/evening/0/building",
                                  '"score_track", "building": "lodge"')]),
    ("step-param-missing.json", [("PROGRAM-USE", "/turn/evening/0",
                                  '{"op": "draw_to_zone", "count": 2}')]),
    # Law 10.2.6: a pile that takes every discard is public and unlimited.
    ("zone-discards.json", [("ZONE-DISCARDS", "/zones/0/face_down",
                             '{"id": "mire", "takes_discards": true, "capacity": 3}'),
                            ("ZONE-DISCARDS", "/zones/0/capacity",
                             '{"id": "mire", "takes_discards": true, "capacity": 3}')]),
    ("box-building.json", [("PIECE-KIND", "/boxes/0/piece", '"piece": "fox-lodge"')]),
    ("extra-action-box.json", [("VALUE-INVALID", "/turn/evening/0/extra_action_suit",
                                '"extra_action_suit"')]),
    # An Outrage-like trigger that names no token; a zone op naming a zone the faction
    # does not have; a zone op on a card (cards have no zones).
    ("trigger-no-token.json", [("TRIGGER-PIECES", "/abilities/1", '"ripple-moved-in"')]),
    ("zone-op-undef.json", [("REF-UNDEF", "/abilities/2/do/2/zone", '"fiends"')]),
    ("deck-zone-op.json", [("EFFECT-ZONE", "/cards/3/on_craft/0", '"op": "trim_zone"')]),
    # Effect programs' parts (score, lose_vp, draw): a negative score (lose_vp loses VP);
    # a card's part naming a zone, a value reading a clearing an immediate card has not;
    # a library program's part for a 'who' only effect programs have.
    ("effect-score-negative.json", [("VALUE-INVALID", "/cards/3/abilities/0/do/1/vp",
                                     '"vp": -1')]),
    ("effect-part.json", [("EFFECT-TARGET", "/cards/4/on_craft/0", '"warriors": "self"'),
                          ("EFFECT-PART", "/cards/3/abilities/0/do/0/into",
                           '"into": "supporters"')]),
    ("program-who.json", [("PROGRAM-SHAPE", "/programs/tithe/do/1/who", '"who": "target"')]),
    ("id-dup.json", [("ID-DUP", "/abilities/1/id", '"Twice"'),
                     ("ID-DUP", "/cards/1/id", '"Plume again"'),
                     ("ID-DUP", "/columns/1/id", '"battle"'),
                     ("ID-DUP", "/roles/1/id", '"Elder again"')]),
    # Found by fuzzing: more than the engine holds (a 64-bit mask of piece kinds
    # overflowed building the core; a 192,000-card deck took 10 s to start a game).
    ("engine-limit-pieces.json", [("ENGINE-LIMIT", "/pieces/pebble-60", '"pebble-60"')]),
    ("engine-limit-deck.json", [("ENGINE-LIMIT", "/cards/18", '"pebble-15"')]),
    # Found by fuzzing: a Daylight of 20,000 steps validated clean, and its games had no
    # winner after 100,000 decisions (the 1001st step of 1001 identical lines: line 1030).
    ("engine-limit-steps.json", [("ENGINE-LIMIT", "/turn/daylight/1000", 1030)]),
    # Found by fuzzing: a hook whose columns fail runs itself again, forever (the engine
    # looped with no decision); a hook inside a hook loses its way back.
    ("hook-nested-columns.json", [("HOOK-NESTED", "/hooks/turmoil/2",
                                   '"turmoil"},\n      {"op": "choose_role"}')]),
    # Found by fuzzing: a menu of a hundred copies of the Marquise's entries validated
    # clean and overflowed the core's list of legal actions (the engine tells a menu's
    # actions apart by what they do: two entries of one action list each twice).
    ("menu-dup.json", [("MENU-DUP", "/turn/daylight/1/menu/3/action", '"moves": 1}\n'),
                       ("MENU-DUP", "/abilities/1/do/0/menu/2/action",
                        '{"action": "battle"}]}]}')]),
    # Found by fuzzing: a piece named twice in a list the engine keeps as a set of bits
    # set another piece's bit (a zone's cap lifted by the wrong building).
    ("piece-list-dup.json", [("ID-DUP", "/zones/0/unlimited_while/2",
                              '"unlimited_while"'),
                             ("ID-DUP", "/abilities/2/pieces/2",
                              '"mouse-lodge", "mouse-lodge"')]),
    ("role-tuck-dup.json", [("ID-DUP", "/roles/3/tuck/1", '"build", "build"')]),
    ("card-trigger-dup.json", [("ID-DUP", "/cards/3/abilities/0/pieces/2",
                                '"pieces": ["cat-warrior"')]),
    # Found by fuzzing: factions whose turns never ask anything, seated together, made
    # the engine turn forever inside Game() without a decision.
    ("turn-no-decision.json", [("TURN-NO-DECISION", "/turn", '"turn"')]),
    # The same on a cycle: run_stage asks only what its hooks ask (here they draw), and
    # score_forests and advance_cycle ask nothing.
    ("turn-no-decision-cycle.json", [("TURN-NO-DECISION", "/turn", '"turn"')]),
    # Effects (abilities of factions and cards, immediate cards' programs).
    ("effect-param.json", [("EFFECT-PARAM", "/abilities/2/side", '"side": "defender"'),
                           ("EFFECT-PARAM", "/abilities/3/mandatory", '"mandatory": true')]),
    # A removal in the program's clearing ('at' left out) where it has none: what
    # remove_enemy_pieces naming neither 'suit' nor 'at' was (EFFECT-PARAM).
    ("effect-target.json", [("EFFECT-TARGET", "/abilities/1/do/0", '"op": "show"'),
                            ("EFFECT-TARGET", "/abilities/2/do/0", '"pieces": "enemy"')]),
    ("effect-battle-only.json", [("EFFECT-BATTLE-ONLY", "/abilities/1/do/0",
                                  '"extra_hits"')]),
    ("effect-take-actions.json", [("EFFECT-TAKE-ACTIONS", "/abilities/1/do/0",
                                   '"take_actions"')]),
    # Law 1.4.1, 6.5: an effect's actions, a number of them; extra actions paid with a
    # card are a turn step's (the step's model, at an effect's place).
    ("effect-actions.json", [("EFFECT-ACTIONS", "/abilities/1/do/0/count", '"count": null'),
                             ("EFFECT-ACTIONS", "/abilities/2/do/0/extra_action_suit",
                              '"extra_action_suit": "bird"')]),
    ("effect-cost.json", [("EFFECT-COST", "/abilities/1/cost", '"cost": "discard"')]),
    ("trigger-pieces.json", [("TRIGGER-PIECES", "/abilities/1/pieces", '"alarm"')]),
    ("deck-effect-program.json", [("EFFECT-TARGET", "/cards/3/on_craft/1", '"hits": 1'),
                                  ("EFFECT-BATTLE-ONLY", "/cards/3/on_craft/0",
                                   '"hits": 1')]),
    # Cycles: a marker round a ring of stages, whose stages run hooks.
    ("hook-nested.json", [("HOOK-NESTED", "/hooks/high-water/0", '"high-water": [{"op"')]),
    ("cycle-stage-dup.json", [("ID-DUP", "/cycles/0/stages/2", '"ebb", "flood", "ebb"')]),
    ("cycle-undef.json", [("REF-UNDEF", "/turn/birdsong/1/cycle", '"moon"')]),
    ("stage-undef.json", [("REF-UNDEF", "/turn/birdsong/1/hooks/spring", '"spring"')]),
    # An effect the engine does not have: the op's tag is not in the catalogue.
    ("effect-unknown.json", [("VALUE-INVALID", "/abilities/1/do/0", '"steal_item"')]),
    # What the loader sees: keys named twice, strings and booleans where integers go.
    ("key-dup.json", [("KEY-DUP", "/pieces/reed", '"count": 7'),
                      ("KEY-DUP", "/hooks/rest", '"discard_columns"')]),
    ("int-as-string.json", [("VALUE-INVALID", "/pieces/heron-warrior/count", '"12"')]),
    ("int-as-bool.json", [("VALUE-INVALID", "/setup_order", '"setup_order"')]),
    ("bool-as-int.json", [("VALUE-INVALID", "/pieces/reed/permanent_removal",
                           '"permanent_removal"')]),
]


@pytest.mark.parametrize("name, expected", DOCUMENTS, ids=[n for n, _ in DOCUMENTS])
def test_broken_document_gives_its_coded_located_finding_and_exit_1(capsys, name, expected):
    path = SEM / name
    got = [(d.code, d.pointer, d.line, d.file, d.severity) for d in findings(path)]
    want = [(code, ptr, line_of(path, needle) if isinstance(needle, str) else needle,
             str(path), "error") for code, ptr, needle in expected]
    assert got == want
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 1
    assert out.splitlines() == [str(d) for d in findings(path)]
    assert not any(x.startswith("ok:") for x in out.splitlines())


@pytest.mark.parametrize("name", ["clean-map.json", "clean-faction.json", "clean-deck.json",
                                  "clean-insurgent.json", "clean-cycle.json"])
def test_the_control_documents_are_clean(capsys, name):
    # Every broken fixture above is one of these with one defect.
    assert findings(SEM / name) == []
    rc, out, _ = run(capsys, "validate", SEM / name)
    assert rc == 0 and out.startswith(f"ok: {SEM / name} (")


def test_the_base_content_and_the_example_validate_clean(capsys):
    assert findings(BASE_PACK) == []
    assert findings(EXAMPLE) == []
    rc, out, _ = run(capsys, "validate", BASE_PACK, EXAMPLE, "--strict")
    assert rc == 0 and len(out.splitlines()) == 2


def test_a_copy_of_the_base_game_is_validated_in_place_of_the_installed_one(capsys, tmp_path):
    """A contributor's checkout (spec/content/base, being edited) beside an installed
    rootlaw (which comes with its own base game): the named base pack is the base game
    of the validation, not a second pack named 'base' (ID-DUP before)."""
    copy = tmp_path / "base"
    shutil.copytree(BASE_PACK, copy)
    rc, out, err = run(capsys, "validate", copy)
    assert (rc, err) == (0, "")
    assert out.startswith(f"ok: {copy} (pack base: 6 files; bundle {resolve().hash}; played 3 "
                          "games on map autumn")
    b = resolve([copy])
    assert b.packs == ("base",) and b.records[0].path == str(copy.resolve())
    # An edit is found in the copy, not in the installed base game.
    f = copy / "marquise.json"
    data = json.loads(f.read_text(encoding="utf-8"))
    data["pieces"]["sawmill"]["track"]["cost"] = [0, 1, 2]
    f.write_text(json.dumps(data, indent=2), encoding="utf-8")
    [d] = findings(copy)
    assert (d.code, d.file, d.pointer) == ("TRACK-LENGTH", str(f), "/pieces/sawmill/track/cost")
    # A pack of the copy's (named with --pack) is checked on the copy too.
    assert [x.code for x in findings(EXAMPLE, packs=[copy])] == ["TRACK-LENGTH"]
    # Two different base games named at once are still two packs with one id.
    other = tmp_path / "other" / "base"
    shutil.copytree(BASE_PACK, other)
    with pytest.raises(SpecError) as e:
        resolve([copy, other])
    assert [(x.code, x.file) for x in e.value.diagnostics] == \
        [("ID-DUP", str(other / "pack.json"))]


# ---------------------------------------------------------------------- bundles


def test_too_few_corners_for_the_home_setups_is_found_in_the_map_of_another_pack(capsys):
    """A pack that requires another: --pack makes it available, and the finding is in
    the required pack's map file (its corners), not in the pack being validated."""
    target, dep = PACKS / "corners-few", PACKS / "corner-map"
    map_file = dep / "two-corners.json"
    [d] = findings(target, packs=[dep])
    assert (d.code, d.file, d.pointer, d.line) == \
        ("MAP-CORNERS-FEW", str(map_file), "/clearings", line_of(map_file, '"clearings"'))
    assert "marquise, eyrie, test-herons" in d.message
    rc, out, _ = run(capsys, "validate", target, "--pack", dep)
    assert rc == 1 and out.splitlines() == [str(d)]
    # The same bundle named only by --pack; the map pack alone is clean.
    rc, out, _ = run(capsys, "validate", "--pack", dep, "--pack", target)
    assert rc == 1 and out.splitlines() == [str(d)]
    assert findings(dep) == []
    # Without the pack it requires: a located PACK-MISSING in the manifest.
    [r] = findings(target)
    assert (r.code, r.file, r.pointer) == ("PACK-MISSING", str(target / "pack.json"),
                                           "/requires/1")


def test_a_corner_without_room_for_the_buildings_setup_places(capsys):
    path = PACKS / "setup-slots" / "cramped.json"
    [d] = findings(PACKS / "setup-slots")
    assert (d.code, d.file, d.pointer, d.line) == \
        ("SETUP-SLOTS", str(path), "/clearings/0/slots", line_of(path, '{"id": 1,'))
    assert "marquise places 3 buildings" in d.message
    assert run(capsys, "validate", PACKS / "setup-slots")[0] == 1


def test_one_verb_of_the_content_s_own_is_one_shape_across_libraries():
    """A content verb is one action type of the bundle: two libraries' programs of one
    verb choosing different things are a PROGRAM-SHAPE, at the later one's verb."""
    path = PACKS / "verb-clash" / "terns.json"
    got = [(d.code, d.file, d.pointer, d.line) for d in findings(PACKS / "verb-clash")]
    assert got == [("PROGRAM-SHAPE", str(path), "/programs/gobble/verb",
                    line_of(path, '"swallow"'))]


def test_faction_card_and_piece_ids_clashing_with_other_content():
    path = PACKS / "id-clash" / "magpies.json"
    got = [(d.code, d.file, d.pointer, d.line) for d in findings(PACKS / "id-clash")]
    assert got == [("ID-DUP", str(path), "/cards/0/id", line_of(path, '"bird-ambush"')),
                   ("ID-DUP", str(path), "/pieces/wood", line_of(path, '"wood"'))]


def test_more_kinds_of_pieces_in_the_factions_together_than_the_engine_holds(tmp_path):
    """Each faction is within the limit; the bundle is not (13 base kinds + 51).  One
    kind fewer builds and plays: the limit is the engine's, not a guess."""
    path = PACKS / "engine-limit" / "otters.json"
    [d] = findings(PACKS / "engine-limit")
    assert (d.code, d.file, d.pointer, d.line) == \
        ("ENGINE-LIMIT", str(path), "/pieces/ripple-46", line_of(path, '"ripple-46"'))
    fewer = tmp_path / "fewer"
    shutil.copytree(PACKS / "engine-limit", fewer)
    data = json.loads((fewer / "otters.json").read_text(encoding="utf-8"))
    del data["pieces"]["ripple-46"]
    (fewer / "otters.json").write_text(json.dumps(data))
    assert findings(fewer) == []
    from rootlaw.runtime import Game
    g = Game(None, 1, bundle=resolve([fewer]), pure=True)
    assert len(g.names["pieces"]) == 63 and g.legal_actions()


@pytest.mark.parametrize("group, limit", [("roles", 62), ("columns", 63)])
def test_more_roles_or_columns_than_the_engine_holds(tmp_path, group, limit):
    data = json.loads((BASE_PACK / "eyrie.json").read_text(encoding="utf-8"))
    data.pop("$schema")
    first, printed = data[group][1], len(data[group])
    data[group] += [{**first, "id": f"extra-{i}"} for i in range(limit - printed + 1)]
    f = tmp_path / "eyrie.json"
    f.write_text(json.dumps(data, indent=1))  # each entry: "{" on a line, its id on the next
    [d] = findings(f)
    assert (d.code, d.pointer) == ("ENGINE-LIMIT", f"/{group}/{limit}")
    assert d.line == line_of(f, f'"extra-{limit - printed}"') - 1
    data[group].pop()
    f.write_text(json.dumps(data, indent=1))
    assert findings(f) == []


def test_resolve_refuses_content_with_errors_so_no_command_plays_it(capsys):
    with pytest.raises(SpecError) as e:
        resolve([PACKS / "setup-slots"], map_id="cramped")
    assert [d.code for d in e.value.diagnostics] == ["SETUP-SLOTS"]
    rc, _, err = run(capsys, "play", "--pack", PACKS / "setup-slots", "--map", "cramped")
    assert rc == 1 and "SETUP-SLOTS" in err and "Traceback" not in err


def test_a_mod_pack_is_checked_with_its_documents(tmp_path):
    """A mod of a base faction: the document checks run on the mod's copy."""
    pack = tmp_path / "mod"
    pack.mkdir()
    data = json.loads((BASE_PACK / "marquise.json").read_text(encoding="utf-8"))
    data.pop("$schema")
    data["pieces"]["sawmill"]["track"]["cost"] = [0, 1, 2]
    (pack / "marquise.json").write_text(json.dumps(data, indent=2))
    (pack / "pack.json").write_text(json.dumps({"kind": "pack", "id": "mod", "name": "m",
                                                "requires": ["base"],
                                                "content": ["marquise.json"]}))
    [d] = findings(pack)
    assert (d.code, d.file, d.pointer) == ("TRACK-LENGTH", str(pack / "marquise.json"),
                                           "/pieces/sawmill/track/cost")


# ---------------------------------------------------------------------- warnings, formats


def test_a_warning_alone_exits_0_and_1_with_strict(capsys):
    path = SEM / "track-draw-none.json"
    [d] = findings(path)
    assert (d.code, d.severity, d.pointer) == \
        ("TRACK-DRAW-NONE", "warning", "/turn/evening/0/bonus_building")
    assert d.line == line_of(path, '"bonus_building"')
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 0
    assert out.splitlines() == [str(d), f"ok: {path} (faction test-herons; 1 warning)"]
    assert "(warning)" in str(d)
    assert run(capsys, "validate", "--strict", path)[0] == 1


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_with_strict_a_warning_fails_in_words_as_in_the_exit_code(capsys, fmt):
    """--strict and only warnings: exit 1, and no format says ok (the text said `ok:`)."""
    path = SEM / "track-draw-none.json"
    [d] = findings(path)
    rc, out, _ = run(capsys, "validate", "--strict", "--format", fmt, path)
    assert rc == 1
    if fmt == "text":
        assert out.splitlines() == [str(d), f"failed: {path} (faction test-herons; 1 warning, "
                                            "and --strict fails on warnings)"]
    elif fmt == "json":
        data = json.loads(out)
        assert (data["ok"], data["exit_code"], data["warnings"]) == (False, 1, 1)
    else:
        assert out.splitlines()[-1] == ("rootlaw validate: 0 errors, 1 warnings in 1 paths: "
                                        "failed (--strict fails on warnings)")
    # Without --strict the same warning passes, and every format says so.
    rc, out, _ = run(capsys, "validate", "--format", fmt, path)
    assert rc == 0
    if fmt == "text":
        assert out.splitlines()[-1].startswith(f"ok: {path} ")
    elif fmt == "json":
        assert json.loads(out)["ok"] is True
    else:
        assert out.splitlines()[-1].endswith("in 1 paths: ok")


def test_a_card_that_does_nothing_as_data_is_a_warning(capsys):
    """A persistent card without abilities, an immediate card without on_craft: not
    craftable (a warning: the card still counts for its suit)."""
    path = SEM / "card-no-effect.json"
    got = [(d.code, d.severity, d.pointer, d.line) for d in findings(path)]
    assert got == [("CARD-NO-EFFECT", "warning", "/cards/3/id", line_of(path, '"hollow-promise"')),
                   ("CARD-NO-EFFECT", "warning", "/cards/4/id", line_of(path, '"empty-favor"'))]
    assert run(capsys, "validate", path)[0] == 0
    assert run(capsys, "validate", "--strict", path)[0] == 1


def test_effect_ids_and_card_piece_names_across_the_bundle(capsys):
    """A faction's effect with the id of a card's ('use <id>' must name one effect); a
    card's trigger naming a piece no faction has."""
    pack = PACKS / "effect-clash"
    owls, deck = pack / "owls.json", pack / "owl-deck.json"
    got = [(d.code, d.file, d.pointer, d.line) for d in findings(pack)]
    assert got == [("ID-DUP", str(owls), "/abilities/0/id", line_of(owls, '"armorers"')),
                   ("REF-UNDEF", str(deck), "/cards/0/abilities/0/pieces/0",
                    line_of(deck, '"pieces": ["nest"]'))]
    assert run(capsys, "validate", pack)[0] == 1


def test_a_turn_that_never_draws_is_a_warning(capsys):
    path = SEM / "turn-no-draw.json"
    [d] = findings(path)
    assert (d.code, d.severity, d.pointer, d.line) == \
        ("TURN-NO-DRAW", "warning", "/turn", line_of(path, '"turn"'))
    assert run(capsys, "validate", path)[0] == 0
    assert run(capsys, "validate", "--strict", path)[0] == 1


@pytest.mark.parametrize("where", ["menu", "if"])
def test_a_draw_in_a_menu_s_program_or_inside_an_if_is_a_draw(tmp_path, where):
    """TURN-NO-DRAW looks at every program the turn runs, at any depth: a faction that
    draws only as an action of its menu (a program with a 'draw'), or in a step's 'if',
    draws.  (Outside authors met both as false warnings.)"""
    doc = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))
    if where == "menu":
        doc["turn"]["daylight"][1]["menu"].append({"action": "forage"})
        prog = {"verb": "forage", "do": [{"op": "choose", "clearing": {"has": "nest"}},
                                         {"op": "draw", "count": 1}]}
    else:
        doc["turn"]["evening"].insert(0, {"op": "forage"})
        prog = {"do": [{"op": "if", "if": {"none_on_map": "nest"},
                        "then": [{"op": "draw", "count": 2}],
                        "else": [{"op": "draw", "count": 1}]}]}
    codes = [d.code for d in validate([herons_pack(tmp_path, doc, {"forage": prog})])
             .diagnostics]
    assert "TURN-NO-DRAW" not in codes, codes
    doc["turn"] = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))["turn"]
    codes = [d.code for d in validate([herons_pack(tmp_path, doc, {"forage": prog})])
             .diagnostics]
    assert "TURN-NO-DRAW" in codes


@pytest.mark.parametrize("named", ["ids", "param"])
def test_tokens_placed_by_suit_and_scored_read_their_suit_and_vp(tmp_path, named):
    """A token of a suit placed as the one of the clearing's suit among several, its
    track's VP scored (Law 11's trade posts, as an outside author wrote them): its 'suit'
    and 'vp' row are read, whether the program names the tokens by id or by a parameter
    (no FIELD-UNREAD); without the scoring placement both are unread."""
    doc = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))
    posts = [f"{x}-post" for x in ("fox", "rabbit", "mouse")]
    for post in posts:
        doc["pieces"][post] = {"kind": "token", "count": 3, "suit": post.split("-")[0],
                               "track": {"vp": [1, 2, 3]}}
    among = posts if named == "ids" else "$posts"
    prog = {"verb": "trade", "do": [
        {"op": "choose", "clearing": {"rule": "self"}},
        {"op": "place", "piece": {"of_suit": "clearing", "among": among}, "score": True}]}
    if named == "param":
        prog["params"] = {"posts": "pieces"}
    entry = {"action": "trade", **({"posts": posts} if named == "param" else {})}
    doc["turn"]["daylight"][1]["menu"].append(entry)

    def unread() -> list[str]:
        found = validate([herons_pack(tmp_path, doc, {"trade": prog})]).diagnostics
        assert not [d for d in found if d.severity == "error"], found
        return [d.pointer for d in found if d.code == "FIELD-UNREAD" and "post" in d.pointer]

    assert unread() == []
    doc["turn"]["daylight"][1]["menu"].pop()
    assert sorted(unread()) == sorted(f"/pieces/{p}/{k}" for p in posts
                                      for k in ("suit", "track/vp"))


def test_a_cycle_its_pack_s_programs_name_by_id_is_moved_and_read(tmp_path):
    """CYCLE-STUCK sees a pack's own programs that name the faction's cycle by its id
    (an outside author's Duchy had to bind every cycle through a parameter to pass
    --strict): one moves it on, another reads its stage; without them, both warnings."""
    doc = json.loads((SEM / "turn-no-draw.json").read_text(encoding="utf-8"))
    doc["cycles"] = [{"id": "tide", "stages": ["low", "high"]}]
    doc["turn"]["evening"].insert(0, {"op": "ebb"})
    doc["turn"]["daylight"][1]["menu"].append({"action": "wade"})
    programs = {"ebb": {"do": [{"op": "set_stage", "cycle": "tide", "by": 1}]},
                "wade": {"verb": "wade", "do": [
                    {"op": "choose", "clearing": {"has": "nest"}},
                    {"op": "score", "vp": {"if": {"at_stage": "high", "cycle": "tide"},
                                           "then": 1}}]}}

    def stuck() -> list[str]:
        return [d.message for d in validate([herons_pack(tmp_path, doc, programs)])
                .diagnostics if d.code == "CYCLE-STUCK"]

    assert stuck() == []
    doc["turn"]["evening"].pop(0)
    doc["turn"]["daylight"][1]["menu"].pop()
    assert stuck() == ["cycle tide: no advance_cycle step moves it",
                       "cycle tide: no run_stage step reads it"]


def test_a_zone_that_can_hold_no_card_is_a_warning(capsys):
    """Law 8.2.3.I: a card gained into a full zone is discarded; capacity 0 and nothing to
    lift it means the zone can never pay for anything."""
    path = SEM / "zone-capacity.json"
    (d,) = findings(path)
    assert (d.code, d.severity, d.pointer, d.line) == (
        "ZONE-CAPACITY", "warning", "/zones/0/capacity", line_of(path, '"capacity": 0'))
    rc, _, _ = run(capsys, "validate", path)
    assert rc == 0
    rc, _, _ = run(capsys, "validate", "--strict", path)
    assert rc == 1
def test_a_cycle_nothing_moves_is_a_warning(capsys, tmp_path):
    path = SEM / "cycle-stuck.json"
    [d] = findings(path)
    assert (d.code, d.severity, d.pointer, d.line) == \
        ("CYCLE-STUCK", "warning", "/cycles/0", line_of(path, '{"id": "tide"'))
    assert "no advance_cycle" in d.message
    assert run(capsys, "validate", path)[0] == 0
    assert run(capsys, "validate", "--strict", path)[0] == 1
    # Moved only by whole turns of the ring: stuck as well.
    data = json.loads((SEM / "clean-cycle.json").read_text(encoding="utf-8"))
    data["turn"]["evening"][-1]["by"] = 4
    f = tmp_path / "round.json"
    f.write_text(json.dumps(data, indent=2), encoding="utf-8")
    [d] = findings(f)
    assert (d.code, d.severity, d.pointer) == ("CYCLE-STUCK", "warning", "/cycles/0")
    assert "by 4 of its 2 stages" in d.message


def test_forests_a_faction_can_never_score_are_a_warning_on_each_map(capsys):
    """Law 2.4: score_forests on the Autumn map with 'min' above its largest forest (5
    clearings), and on a map with no forests at all: each map of the pack once."""
    path = PACKS / "forest-score" / "foresters.json"
    got = [(d.code, d.severity, d.file, d.pointer, d.line)
           for d in findings(PACKS / "forest-score")]
    line = line_of(path, '"score_forests"')
    assert got == [("FOREST-SCORE", "warning", str(path), "/turn/evening/2/min", line),
                   ("FOREST-SCORE", "warning", str(path), "/turn/evening/2", line)]
    rc, out, _ = run(capsys, "validate", "--strict", PACKS / "forest-score")
    assert rc == 1 and "at most 5 clearings" in out and "'glade' has no forests" in out


def test_map_warnings(capsys):
    path = SEM / "map-forest-id.json"
    [d] = findings(path)
    assert (d.code, d.severity, d.pointer) == ("MAP-FOREST-ID", "warning", "/forests/1/id")
    assert run(capsys, "validate", path)[0] == 0


def test_unusable_input_exits_2(capsys, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for path, code in ((deep, "JSON-DEPTH"), (tmp_path / "missing.json", "FILE-MISSING"),
                       (DATA / "content" / "syntax.json", "JSON-SYNTAX")):
        rc, out, err = run(capsys, "validate", path, SEM / "track-short.json")
        assert rc == 2, out + err
        assert code in out and "TRACK-LENGTH" in out and "Traceback" not in err


def test_json_format_lists_every_finding(capsys):
    rc, out, _ = run(capsys, "validate", "--format", "json", SEM / "id-dup.json",
                     SEM / "track-draw-none.json", SEM / "clean-map.json")
    data = json.loads(out)
    assert rc == 1 and data["exit_code"] == 1 and data["ok"] is False
    assert (data["errors"], data["warnings"]) == (4, 1)
    assert [c["path"] for c in data["checked"]] == \
        [str(SEM / n) for n in ("id-dup.json", "track-draw-none.json", "clean-map.json")]
    first = data["findings"][0]
    assert first == {"code": "ID-DUP", "severity": "error", "file": str(SEM / "id-dup.json"),
                     "line": line_of(SEM / "id-dup.json", '"Twice"'),
                     "pointer": "/abilities/1/id", "message": first["message"]}


def test_github_format_is_workflow_command_annotations(capsys):
    path = SEM / "track-short.json"
    rc, out, _ = run(capsys, "validate", "--format", "github", path,
                     SEM / "track-draw-none.json")
    lines = out.splitlines()
    line = line_of(path, '"cost"')
    assert rc == 1
    assert lines[0] == (f"::error file={path},line={line},"
                        "title=TRACK-LENGTH::nest: 3 cost values for 4 pieces "
                        "(at /pieces/nest/track/cost)")
    assert lines[1].startswith("::warning file=") and "title=TRACK-DRAW-NONE::" in lines[1]
    assert lines[-1] == "rootlaw validate: 1 errors, 1 warnings in 2 paths: failed"


def test_github_format_escapes_what_would_break_a_command(tmp_path, capsys):
    # A file name with a comma and a colon, a message with a newline-free '%'.
    odd = tmp_path / "a,b:c.json"
    shutil.copy(SEM / "track-short.json", odd)
    rc, out, _ = run(capsys, "validate", "--format", "github", odd)
    assert rc == 1
    assert f"file={str(odd).replace(':', '%3A').replace(',', '%2C')}," in out


def test_validate_needs_something_to_validate(capsys):
    rc, _, err = run(capsys, "validate")
    assert rc == 1 and "VALUE-INVALID" in err


# ---------------------------------------------------------------------- content with no effect

# (fixture, [(code, pointer, needle on the finding's line)]): content that validates and
# can never change a game, each a warning (clean-faction.json with the defects).
NO_EFFECT = [
    # A trigger carried out by the other player: its target is that player too.
    ("effect-no-effect.json", [
        ("EFFECT-NO-EFFECT", "/abilities/1/do/0", '"pick": "random"'),
        ("EFFECT-NO-EFFECT", "/abilities/1/do/1", '"pick": "random"'),
        ("EFFECT-NO-EFFECT", "/abilities/2/do/1/vp", '"vp": 0')]),
    # A building's suit that build ignores (only revolt reads a suit), a token's, a warrior's.
    ("field-unread-suit.json", [
        ("FIELD-UNREAD", "/pieces/heron-warrior/suit", '"suit": "mouse"'),
        ("FIELD-UNREAD", "/pieces/nest/suit", '"suit": "fox"'),
        ("FIELD-UNREAD", "/pieces/reed/suit", '"suit": "rabbit"')]),
    # (a piece's fields are read by the programs its menus run: found after the rest)
    ("field-unread.json", [
        ("FIELD-UNREAD", "/zones/0/unlimited_while", '"cache"'),
        ("FIELD-UNREAD", "/columns/0/building", '"wade"'),
        ("FIELD-UNREAD", "/crafting_piece", '"crafting_piece"'),
        ("FIELD-UNREAD", "/abilities/1/target", '"taunt"'),
        ("FIELD-UNREAD", "/pieces/reed/track/cost", '"cost": [1, 1, 1, 2, 2, 2]')]),
]


@pytest.mark.parametrize("name, expected", NO_EFFECT, ids=[n for n, _ in NO_EFFECT])
def test_content_that_can_have_no_effect_is_a_located_warning(capsys, name, expected):
    path = SEM / name
    got = [(d.code, d.pointer, d.line, d.severity) for d in findings(path)]
    assert got == [(code, ptr, line_of(path, needle), "warning")
                   for code, ptr, needle in expected]
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 0 and out.splitlines()[-1] == \
        f"ok: {path} (faction test-herons; {len(expected)} warnings)"
    assert run(capsys, "validate", "--strict", path)[0] == 1


def test_a_cards_trigger_by_the_other_player_taking_from_them_is_a_warning(tmp_path):
    data = json.loads((SEM / "clean-deck.json").read_text(encoding="utf-8"))
    data["cards"][1]["abilities"].append({
        "kind": "trigger", "id": "snatch", "on": "pieces_removed", "pieces": ["cat-warrior"],
        "actor": "other", "do": [{"op": "give", "who": "target", "to": "self",
                                  "pick": "random"}]})
    f = tmp_path / "deck.json"
    f.write_text(json.dumps(data, indent=2), encoding="utf-8")
    [d] = findings(f)
    assert (d.code, d.severity, d.pointer) == \
        ("EFFECT-NO-EFFECT", "warning", "/cards/1/abilities/1/do/0")


@pytest.mark.parametrize("actor, marquise, eyrie", [("other", ["anvil"], ["sword"]),
                                                     ("self", [], ["anvil", "sword"])])
def test_the_engine_does_what_the_warning_says(tmp_path, actor, marquise, eyrie):
    """Law 1.5.4 (a trigger runs after its event): the Eyrie's roost is removed; carried
    out by the remover ('actor': other), a random give from the target to 'self' (what
    take_random_card was) takes from the remover's own
    hand (nothing changes); by the Eyrie ('actor': self), from the remover's."""
    from rootlaw.runtime import scenario as sc

    pack = tmp_path / "pilfer"
    pack.mkdir()
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "pilfer", "name": "pilfer", "version": "1",
        "requires": ["base"], "content": ["patch.json"]}), encoding="utf-8")
    (pack / "patch.json").write_text(json.dumps({
        "kind": "patch", "target": "faction:eyrie", "patch": [{
            "op": "add", "path": "/abilities/-", "value": {
                "kind": "trigger", "id": "pilfer", "on": "pieces_removed",
                "pieces": ["roost"], "actor": actor, "do": [
                    {"op": "give", "who": "target", "to": "self", "pick": "random"}]}}]}),
        encoding="utf-8")
    warned = [d.code for d in findings(pack)]
    assert warned == (["EFFECT-NO-EFFECT"] if actor == "other" else [])
    data = {"factions": ["marquise", "eyrie"], "seed": 1, "position": {
        "clear": True, "pieces": {"5": {"cat-warrior": 3, "roost": 1}},
        "hands": {"marquise": ["anvil"], "eyrie": ["sword"]}, "dice": [[1, 0]],
        "turn": {"faction": "marquise", "phase": "daylight", "step": "actions"}},
        "steps": [{"do": ["battle 5 eyrie", "done"], "expect": {
            "pieces": {"5": {"roost": 0}}, "hands": {"marquise": marquise, "eyrie": eyrie}}}]}
    assert sc.run_scenario(data, bundle=resolve([pack]), pure=True) == []


def test_a_pile_that_takes_discards_is_one_a_bundle(tmp_path):
    """Two factions whose piles both take every discard: a card can go into one pile
    only, so the bundle is refused (ZONE-DISCARDS-TWO), located at the second pile."""
    pack = tmp_path / "twins"
    shutil.copytree(PACKS / "piles", pack)
    twin = json.loads((pack / "newts.json").read_text(encoding="utf-8"))
    twin["id"], twin["name"], twin["setup_order"] = "test-salamanders", "Twins", 8
    twin["pieces"] = {"salamander": {"kind": "warrior", "count": 15},
                      "pool2": {"kind": "building", "count": 3}}
    twin["crafting_piece"] = "pool2"
    twin["setup"] = [{"op": "setup_home_corner", "building": "pool2", "warriors": 3}]
    twin["turn"]["daylight"][1]["menu"][0]["piece"] = "salamander"
    (pack / "salamanders.json").write_text(json.dumps(twin, indent=1), encoding="utf-8")
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["content"].append("salamanders.json")
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    found = [d for d in findings(pack) if d.code == "ZONE-DISCARDS-TWO"]
    assert len(found) == 1
    assert found[0].file.endswith("salamanders.json")
    assert found[0].pointer == "/zones/0/takes_discards"


def test_a_lone_faction_file_s_misspelt_step_op_and_key_are_told():
    """Validated alone, a faction file's step op that no standard program has may be
    its pack's program: PROGRAM-REF as a warning, with 'did you mean'; a step's key that
    is no parameter of the standard program it names is KEY-UNKNOWN, an error."""
    path = SEM / "step-op-misspelt.json"
    got = {(d.code, d.pointer, d.severity): d.message for d in findings(path)}
    ref = got[("PROGRAM-REF", "/turn/evening/0/op", "warning")]
    assert "'drwa' is no step or program (did you mean 'draw'?)" in ref
    assert "unless its pack's library defines it" in ref
    unknown = next(k for k in got if k[0] == "KEY-UNKNOWN")
    assert unknown[2] == "error" and unknown[1].endswith("/cuont")
    assert "did you mean 'count'?" in got[unknown]


# ---------------------------------------------------------------------- the table and its docs


def test_every_check_has_a_code_severity_summary_and_example():
    for c in CHECKS:
        assert c.code.isupper() and c.severity in ("error", "warning"), c
        assert c.summary and c.example, c


def test_every_check_code_has_a_fixture_that_triggers_it():
    """A check nothing triggers could be dead; every code is exercised above."""
    triggered = {code for _, exp in DOCUMENTS + NO_EFFECT for code, _, _ in exp}
    triggered |= {"MAP-CORNERS-FEW", "SETUP-SLOTS", "ID-DUP", "TRACK-DRAW-NONE", "TURN-NO-DRAW",
                  "MAP-FOREST-ID", "MAP-SUIT-MISSING", "CARD-NO-EFFECT", "REF-UNDEF",
                  "ZONE-CAPACITY", "CYCLE-STUCK", "FOREST-SCORE", "PROGRAM-USE",
                  "PROGRAM-NEVER", "ZONE-DISCARDS-TWO", "KEY-UNKNOWN",
                  "CYCLE-STAGE",  # (test_stage_parts.py)
                  "MAP-EDGE-NONE",  # (test_map_edge.py)
                  "MAP-RIVER-NONE",  # (test_river_filter.py)
                  "COLUMN-WAYS",  # (test_column_ways.py)
                  "EFFECT-IF", "CONDITION-DID"}  # (test_end_of_phase.py)
    assert {c.code for c in CHECKS} <= triggered


# ---------------------------------------------------------------------- programs where used


def test_a_program_naming_what_its_user_lacks_is_an_error_at_the_menu_entry(capsys):
    """A pack's library names a piece and a zone by id, and counts with a number the
    otters' spread entry leaves out: each use that cannot run is found at the entry that
    runs the program (the Alliance's in the base game's file too), naming the program's
    part; before, the core's build raised a traceback (ProgramError) on the first."""
    pack = PACKS / "program-use"
    lib, otters = pack / "library.json", pack / "otters.json"
    alliance = BASE_PACK / "alliance.json"
    got = sorted((d.code, d.severity, d.file, d.pointer, d.line) for d in findings(pack)
                 if d.severity == "error")
    assert got == sorted([
        ("PROGRAM-USE", "error", str(alliance), "/turn/daylight/0/menu/1",
         line_of(alliance, '{"action": "mobilize", "zone": "supporters"}')),
        ("PROGRAM-USE", "error", str(alliance), "/turn/evening/0/menu/3",
         line_of(alliance, '{"action": "organize", "token": "sympathy"}')),
        ("PROGRAM-USE", "error", str(otters), "/turn/birdsong/0/menu/1",
         line_of(otters, '{"action": "spread"')),
        ("PROGRAM-USE", "error", str(otters), "/turn/daylight/0/menu/1",
         line_of(otters, '{"action": "mobilize"')),
    ])
    said = {(d.file, d.pointer): d.message for d in findings(pack)}
    assert said[str(otters), "/turn/daylight/0/menu/1"] == (
        f"mobilize: program mobilize names zone 'frends' at /programs/mobilize/do/1/zone "
        f"({lib}), which test-otters does not have (did you mean 'friends'?)")
    assert said[str(alliance), "/turn/daylight/0/menu/1"].endswith(
        "which alliance does not have (its zones: supporters)")
    assert said[str(alliance), "/turn/evening/0/menu/3"] == (
        f"organize: program organize names piece 'ripple' at /programs/organize/do/2/piece "
        f"({lib}), which alliance does not have (a piece of test-otters)")
    assert said[str(otters), "/turn/birdsong/0/menu/1"] == (
        f"spread: program spread's 'place' counts with '$surcharge_warriors' at "
        f"/programs/spread/do/2/count ({lib}), which this entry leaves out: give it "
        "'surcharge_warriors'")
    # The pack's organize and spread read no track of the tokens their entries name:
    # warnings; its organize places 'ripple' by id and scores it, so the otters' ripple
    # has its 'vp' row read (before, a false warning an outside author met too).
    unread = sorted((d.file, d.pointer) for d in findings(pack) if d.severity == "warning")
    assert unread == sorted([(str(alliance), "/pieces/sympathy/track/cost"),
                             (str(alliance), "/pieces/sympathy/track/vp"),
                             (str(otters), "/pieces/ripple/track/cost")])
    rc, out, _ = run(capsys, "validate", pack, "--play", 0)
    assert rc == 1 and out.count("PROGRAM-USE") == 4
    # No command builds it: resolve refuses it with the same located findings.
    with pytest.raises(SpecError) as e:
        resolve([pack])
    assert sorted((d.file, d.pointer) for d in e.value.diagnostics) == \
        sorted((f, p) for _, _, f, p, _ in got)


def test_a_program_parameter_its_entry_cannot_give_is_an_error_at_the_entry(tmp_path):
    """Menu entries are of fixed shapes: a program's parameter that the entry running it
    has no field for (or one of another form) cannot be bound (the build raised an
    AttributeError)."""
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "lodges", "name": "x", "version": "1", "requires": ["base"],
         "content": ["library.json"]}), encoding="utf-8")
    programs = {
        "recruit_at": {"verb": "recruit", "params": {"buildings": "pieces", "lodge": "piece"},
                       "do": [{"op": "choose", "clearing": {"has_any": "$buildings"}},
                              {"op": "place", "piece": "warrior"}]},
        "organize": {"verb": "organize", "params": {"token": "number"},
                     "do": [{"op": "choose", "clearing": {"has": "warrior"}},
                            {"op": "place", "piece": "warrior", "count": "$token"}]}}
    (tmp_path / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "x", "programs": programs}), encoding="utf-8")
    got = [(d.code, d.pointer, d.message) for d in findings(tmp_path)]
    assert got == [
        ("PROGRAM-USE", "/turn/evening/0/menu/2",
         "recruit_at: program recruit_at has a piece parameter 'lodge', and a 'recruit_at' "
         "entry has no 'lodge' to give it (its fields: buildings)"),
        ("PROGRAM-USE", "/turn/evening/0/menu/3",
         "organize: program organize's parameter 'token' is a number, and this entry's "
         "'token' is 'sympathy'"),
        # The Eyrie's Decree recruits with the same program (Law 7.5.2.I): its column
        # cannot give the new parameter either.
        ("PROGRAM-USE", "/columns/0",
         "recruit_at: program recruit_at has a piece parameter 'lodge', and a 'recruit_at' "
         "column has no 'lodge' to give it (its fields: buildings)"),
    ]


def test_a_program_never_offered_where_it_is_used_is_a_warning_at_the_entry(capsys):
    """The otters' revolt places a lodge of the clearing's suit (fox or mouse): on a map
    of rabbit clearings it is never offered (and on the Autumn map it is: one warning,
    for the pack's map); a spread whose choice compares with a number its entry leaves
    out passes no clearing on any map."""
    pack = PACKS / "program-never"
    otters = pack / "otters.json"
    got = sorted((d.code, d.severity, d.file, d.pointer, d.line) for d in findings(pack)
                 if d.code == "PROGRAM-NEVER")
    assert got == [
        ("PROGRAM-NEVER", "warning", str(otters), "/turn/birdsong/0/menu/0",
         line_of(otters, '{"action": "revolt"')),
        ("PROGRAM-NEVER", "warning", str(otters), "/turn/birdsong/0/menu/1",
         line_of(otters, '{"action": "spread"')),
    ]
    said = {d.pointer: d.message for d in findings(pack) if d.code == "PROGRAM-NEVER"}
    assert said["/turn/birdsong/0/menu/0"] == (
        "revolt: program revolt places the piece of the chosen clearing's suit among "
        "fox-lodge (fox), mouse-lodge (mouse) at /programs/revolt/do/3/piece "
        f"({BASE_PACK / 'library.json'}), and map 'warren' has clearings of rabbit only: "
        "it is never offered there")
    assert said["/turn/birdsong/0/menu/1"] == (
        "spread: program spread's choice has a 'when' at /programs/spread/do/0/clearing/when "
        f"({pack / 'library.json'}) that compares with a number this entry leaves out, so it "
        "never holds: no clearing passes it")
    rc, out, _ = run(capsys, "validate", pack, "--play", 0)
    assert rc == 0 and "3 warnings" in out  # and the map's MAP-SUIT-MISSING
    assert run(capsys, "validate", pack, "--play", 0, "--strict")[0] == 1


def test_a_choice_bound_to_no_pieces_is_never_offered_a_warning_at_the_entry(tmp_path):
    """Train's card must match a clearing holding one of its buildings (Law 8.5.3): an
    entry giving it no buildings at all has no option (an empty list was accepted in
    silence; the per-action model it replaced needed one)."""
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "no-bases", "name": "x", "version": "1", "requires": ["base"],
         "content": ["train.json"]}), encoding="utf-8")
    (tmp_path / "train.json").write_text(json.dumps(
        {"kind": "patch", "target": "faction:alliance", "patch": [
            {"op": "test", "path": "/turn/daylight/0/menu/2/action", "value": "train"},
            {"op": "replace", "path": "/turn/daylight/0/menu/2/buildings", "value": []}]}),
        encoding="utf-8")
    got = [(d.code, d.severity, d.pointer, d.message) for d in findings(tmp_path)]
    assert got == [(  # located at the patch's operation that wrote the empty list
        "PROGRAM-NEVER", "warning", "/patch/1",
        "train: program train's choice reads an empty list of pieces at "
        f"/programs/train/do/0/card/matching/has_any ({BASE_PACK / 'library.json'}) (this "
        "entry gives none): it has no option, so it is never offered (in faction:alliance "
        "as patched, at /turn/daylight/0/menu/2)")]
    assert not [d for d in findings(BASE_PACK) if d.code == "PROGRAM-NEVER"]


def test_a_spend_its_zone_can_never_hold_is_a_warning_at_the_entry(capsys):
    """The otters' revolt costs 5 friends, and their zone holds 4, its capacity lifted by
    nothing (Law 8.2.3.I: a card gained into a full zone is discarded)."""
    pack = PACKS / "program-cost"
    otters = pack / "otters.json"
    got = [(d.code, d.severity, d.file, d.pointer, d.line, d.message)
           for d in findings(pack)]
    assert got == [
        ("PROGRAM-NEVER", "warning", str(otters), "/turn/birdsong/0/menu/0",
         line_of(otters, '{"action": "revolt"'),
         "revolt: program revolt spends at least 5 cards from zone friends at "
         f"/programs/revolt/do/1 ({BASE_PACK / 'library.json'}), which holds at most 4 "
         "(nothing lifts its capacity): it is never offered")]
    assert run(capsys, "validate", pack, "--play", 0)[0] == 0


def test_a_choice_s_filter_of_its_own_clearing_s_suit_is_a_warning(capsys):
    """'suit': "clearing" where the clearing being chosen is the one tested passes every
    clearing; in 'adjacent_to' and in a count's filter it reads the chosen clearing."""
    path = SEM / "program-suit-unread.json"
    got = [(d.code, d.severity, d.pointer, d.line) for d in findings(path)]
    assert got == [
        ("FIELD-UNREAD", "warning", "/programs/wade/do/0/clearing/suit",
         line_of(path, '"clearing": {"has": "warrior", "suit": "clearing"}')),
        ("FIELD-UNREAD", "warning", "/programs/flock/do/0/clearing/any_of/0/suit",
         line_of(path, '{"has": "warrior", "suit": "clearing"},')),
    ]
    assert findings(path)[0].message == (
        "wade: 'suit': \"clearing\" in the choice of a clearing is the suit of the clearing "
        "being chosen, which every clearing matches: it changes nothing")
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 0 and out.splitlines()[-1] == \
        f"ok: {path} (library herons-programs; 2 warnings)"


def test_a_map_missing_a_suit_is_a_warning(tmp_path):
    data = json.loads((SEM / "clean-map.json").read_text(encoding="utf-8"))
    for c in data["clearings"]:
        if c["suit"] == "mouse":
            c["suit"] = "fox"
    f = tmp_path / "m.json"
    f.write_text(json.dumps(data, indent=2))
    [d] = findings(f)
    assert (d.code, d.severity, d.pointer) == ("MAP-SUIT-MISSING", "warning", "/clearings")
    assert "mouse" in d.message


def test_docs_validation_md_is_current():
    assert DOC.read_text(encoding="utf-8") == checks_markdown(), \
        "docs/validation.md is stale: regenerate it with " \
        "`rootlaw validate --list-checks --out docs/validation.md`"


def test_docs_list_every_code():
    text = DOC.read_text(encoding="utf-8")
    for c in CHECKS:
        assert f"`{c.code}`" in text


def test_pre_commit_hook_runs_validate():
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [h for h in hooks if h["id"] == "rootlaw-validate"]
    assert hook["entry"].split()[:2] == ["rootlaw", "validate"]
    assert hook["language"] == "python" and hook["pass_filenames"] is False


def test_a_factions_piece_references_are_walked_once(monkeypatch):
    # Found by fuzzing: five checks each walked every step of a faction for the pieces it
    # names, so a 20,000-step setup took validate past its 2 s budget; they share one walk.
    import rootlaw.spec.semantics as sem

    walks = []
    real = sem._walk_piece_refs
    monkeypatch.setattr(sem, "_walk_piece_refs", lambda f: walks.append(f.id) or real(f))
    monkeypatch.setattr(sem, "_REFS", [None, []])
    assert findings(SEM / "menu-dup.json")  # a faction document with findings
    assert walks == ["test-herons"]


@pytest.mark.parametrize("copies", [2, 4000])
def test_a_revolt_naming_buildings_of_one_suit_twice_is_reported_at_each_repeat(
        tmp_path, copies):
    # Found by fuzzing: each name was compared with every name before it (28 s on a revolt
    # naming 20,000 buildings); each repeat is still reported against the suit's first.
    doc = json.loads((BASE_PACK / "alliance.json").read_text(encoding="utf-8"))
    revolt = doc["turn"]["birdsong"][0]["menu"][0]
    assert revolt["action"] == "revolt"
    revolt["buildings"] = ["fox-base", "rabbit-base", "mouse-base"] * copies
    path = tmp_path / "alliance.json"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    suits = [(d.pointer, d.message) for d in findings(path) if d.code == "PIECE-SUIT"]
    assert suits[:3] == [
        ("/turn/birdsong/0/menu/0/buildings/3", "revolt: 'fox-base' and 'fox-base' are both fox"),
        ("/turn/birdsong/0/menu/0/buildings/4",
         "revolt: 'rabbit-base' and 'rabbit-base' are both rabbit"),
        ("/turn/birdsong/0/menu/0/buildings/5",
         "revolt: 'mouse-base' and 'mouse-base' are both mouse")]


# ---------------------------------------------------------------------- scenario files

SCENARIOS = ROOT / "tests" / "scenarios"
BAD_SCENARIOS = DATA / "scenarios" / "invalid"


def test_a_scenario_file_is_recognised_and_read_against_the_content(capsys):
    """`validate SCENARIO.json` said `Unable to extract tag using discriminator 'kind'`."""
    path = SCENARIOS / "02-key-concepts" / "bird-card-pays-overwork-anywhere.json"
    rc, out, err = run(capsys, "validate", path)
    assert (rc, err) == (0, "")
    assert out.splitlines() == [f"ok: {path} (scenario: 2 steps, marquise and eyrie on the "
                                "base game; `rootlaw scenario` runs it)"]


@pytest.mark.parametrize("name, pointer, needle, message", [
    ("expect-typo.json", "/expect/peices", '"peices"',
     "'peices' is not a key of 'expect' (did you mean 'pieces'?)"),
    ("unknown-piece.json", "/position/pieces/5/timber", '"timber"', "unknown piece 'timber'"),
])
def test_a_scenario_that_means_nothing_is_scenario_invalid_at_its_line(capsys, name, pointer,
                                                                       needle, message):
    path = BAD_SCENARIOS / name
    [d] = findings(path)
    assert (d.code, d.file, d.pointer, d.line) == \
        ("SCENARIO-INVALID", str(path), pointer, line_of(path, needle))
    assert message in d.message
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 1 and out.splitlines() == [str(d)]


def test_a_packs_scenario_is_read_on_the_pack_it_lies_in(capsys, tmp_path):
    """The homebrew map's scenario names its clearings: on the pack it lies in it reads;
    copied out of the pack, on the base game, it does not, until --pack names the pack."""
    pack = ROOT / "examples" / "homebrew-map"
    path = pack / "scenarios" / "march-along-thicket-paths.json"
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 0 and "on packs base, homebrew-map" in out
    alone = tmp_path / "march.json"
    shutil.copy(path, alone)
    [d] = findings(alone)
    assert d.code == "SCENARIO-INVALID" and d.file == str(alone)
    assert findings(alone, packs=[pack]) == []


def test_validating_a_scenario_never_compiles(capsys, tmp_path, monkeypatch):
    """docs/validation.md: "validate never compiles", scenarios too: a scenario of a pack
    whose core is not built is read on the pure core, with auto-build on."""
    from rootlaw.generator import build as gbuild

    pack = tmp_path / "four-actions"
    shutil.copytree(ROOT / "examples" / "four-actions", pack)
    patch = pack / "four-actions.json"
    patch.write_text(patch.read_text(encoding="utf-8").replace(  # (a core not built)
        '"value": 4}', '"value": 7}'), encoding="utf-8")
    assert gbuild.compiled_path(resolve([pack])) is None
    monkeypatch.setenv("ROOTLAW_AUTO_BUILD", "1")

    def refuse(bundle, *a, **k):
        raise AssertionError("validate compiled a core")

    monkeypatch.setattr(gbuild, "compile_core", refuse)
    rc, out, err = run(capsys, "validate", pack / "scenarios")
    assert rc == 0 and out.startswith("ok: ") and "compil" not in err


def test_a_folder_of_scenarios_validates_each_file_and_the_repositorys_all_do(capsys):
    files = sorted(SCENARIOS.rglob("*.json"))
    rc, out, _ = run(capsys, "validate", SCENARIOS, *sorted(ROOT.glob("examples/*/scenarios")))
    lines = out.splitlines()
    assert rc == 0, "\n".join(x for x in lines if not x.startswith("ok: "))
    assert len(lines) == len(files) + len(list(ROOT.glob("examples/*/scenarios/*.json")))
    assert all(x.startswith("ok: ") and "(scenario: " in x for x in lines)


def test_content_without_a_kind_says_what_kinds_there_are(tmp_path):
    f = tmp_path / "x.json"
    f.write_text('{"id": "x"}', encoding="utf-8")
    [d] = findings(f)
    assert (d.code, d.pointer) == ("KEY-MISSING", "")
    assert d.message.startswith("a content file needs 'kind', saying which: pack, map, deck, "
                                "faction, patch, library; a rules scenario has no 'kind'")
    assert "docs/scenarios.md" in d.message


# ---------------------------------------------------------------------- played games

TOO_SMALL = PACKS / "too-small-map"


def test_a_map_on_which_no_game_ends_is_found_by_the_seeded_games(capsys):
    """Two clearings, every slot filled at setup: the map validates (only a warning: no
    mouse clearing), and every random game on it turns without end.  validate plays
    three seeded games by default and names the stall."""
    map_file = TOO_SMALL / "two-clearings.json"
    assert [d.code for d in findings(TOO_SMALL)] == ["MAP-SUIT-MISSING"]  # play=0
    rc, out, _ = run(capsys, "validate", TOO_SMALL)
    assert rc == 1
    warning, stall = out.splitlines()
    assert warning.startswith(f"{map_file}:6: MAP-SUIT-MISSING (warning)")
    assert stall.startswith(f"{map_file}:1: PLAY-STALL: no game on map two-clearings ends: "
                            "the 3 seeded games (marquise, eyrie and alliance; seeds 1, 2, 3) "
                            "all stalled; seed 1: no faction reached a VP it had not had "
                            "before in 500 rounds, from round ")
    assert re.search(r"\[played 3 games on map two-clearings in [0-9.]+ s \((compiled|pure) "
                     r"core\): 0 ended, 3 stalled\]$", stall), stall
    # Off: only the warning.
    rc, out, _ = run(capsys, "validate", "--play", "0", TOO_SMALL)
    assert rc == 0 and "played" not in out
    # GitHub annotations carry it as an error of the map's file.
    rc, out, _ = run(capsys, "validate", "--format", "github", TOO_SMALL)
    assert rc == 1 and f"::error file={map_file},line=1,title=PLAY-STALL::" in out


def test_the_time_budget_leaves_games_undecided_and_says_so(capsys):
    rc, out, _ = run(capsys, "validate", "--play-seconds", "0", TOO_SMALL)
    assert rc == 0
    assert "; played 0 of 3 games on map two-clearings in 0.00 s (" in out
    assert "core): 0 ended, 3 undecided in the time budget; 1 warning)" in out


def test_the_base_game_and_the_examples_play_to_an_end(capsys):
    for pack in (BASE_PACK, *sorted(p for p in (ROOT / "examples").iterdir()
                                    if (p / "pack.json").exists())):
        rc, out, _ = run(capsys, "validate", "--strict", pack)
        assert rc == 0, out
        assert re.search(r"; played 3 games on map \w+ in [0-9.]+ s \((compiled|pure) core\): "
                         r"3 ended, \d+ to \d+ rounds\)$", out.strip()), out


def test_some_games_stalling_is_a_warning_and_all_an_error():
    """The verdict of the seeded games (runtime/probe.py), on the base game with small
    window: at 8 rounds seed 1's longest stall counts (the other two games end)."""
    from rootlaw.runtime.probe import probe

    base = resolve()
    ok = probe(base)
    assert ok.verdict() is None and ok.ended == 3
    some = probe(base, stall_rounds=8)
    code, severity, message = some.verdict()
    assert (code, severity) == ("PLAY-SLOW", "warning") and some.ended == 2
    assert message.startswith("1 of 3 seeded games on map autumn (marquise, eyrie and "
                              "alliance) stalled (seeds 1) while 2 ended; seed 1: no faction")
    tiny = probe(resolve([TOO_SMALL]), games=1)
    assert tiny.verdict()[:2] == ("PLAY-STALL", "error")


# ---------------------------------------------------------------------- a cost in pieces


def test_a_pay_the_faction_can_never_afford_is_a_warning_at_the_entry(capsys):
    """The beavers build dams paying logs (the standard build, Law 6.5.4.II): every dam
    costs at least 3 logs, and they have 2 in all, so their build is never offered."""
    pack = PACKS / "program-pay"
    beavers = pack / "beavers.json"
    got = [(d.code, d.severity, d.file, d.pointer, d.line, d.message)
           for d in findings(pack)]
    assert got == [
        ("PROGRAM-NEVER", "warning", str(beavers), "/turn/daylight/1/menu/1",
         line_of(beavers, '{"action": "build"'),
         "build: program build pays at least 3 log at /programs/build/do/1 "
         f"({BASE_PACK / 'library.json'}), and test-beavers has 2 in all: it is never "
         "offered")]
    assert run(capsys, "validate", pack, "--play", 0)[0] == 0
    # The Marquise's build (wood 8, sawmills from 0) is offered: no finding of the base.
    assert not [d for d in findings(BASE_PACK) if d.code.startswith("PROGRAM")]


def test_a_pay_naming_a_piece_its_user_lacks_is_an_error_at_the_entry(tmp_path):
    """A pack's build pays a piece by id that the Marquise (who builds) lacks: found at
    her build entry in the base game's file, naming the program's part."""
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "woods", "name": "x", "version": "1", "requires": ["base"],
         "content": ["library.json"]}), encoding="utf-8")
    programs = {"build": {
        "law": "6.5.4", "verb": "build", "params": {"buildings": "pieces"},
        "do": [{"op": "choose", "piece": {"among": "$buildings"}, "clearing": {"rule": "self"}},
               {"op": "pay", "piece": "wod", "count": {"track_cost": "piece"}},
               {"op": "place", "piece": "piece", "score": True}]}}
    (tmp_path / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "x", "programs": programs}), encoding="utf-8")
    marquise = BASE_PACK / "marquise.json"
    got = [(d.code, d.file, d.pointer, d.line, d.message) for d in findings(tmp_path)]
    assert got == [
        ("PROGRAM-USE", str(marquise), "/turn/daylight/1/menu/3",
         line_of(marquise, '{"action": "build"'),
         "build: program build names piece 'wod' at /programs/build/do/1/piece "
         f"({tmp_path / 'library.json'}), which marquise does not have (did you mean "
         "'wood'?)"),
        # (this build pays its own named piece: the entry's pay_token is read by nothing)
        ("FIELD-UNREAD", str(marquise), "/turn/daylight/1/menu/3/pay_token",
         line_of(marquise, '{"action": "build"'),
         "build: program build has no parameter 'pay_token' (its parameters: buildings)")]


def test_a_pay_counting_with_a_number_its_entry_leaves_out_is_an_error(tmp_path):
    """A pack's spread pays tokens counted by 'surcharge_warriors', which the otters'
    spread entry leaves out: there is no count to pay (the core's build would raise a
    ProgramError)."""
    otters = (PACKS / "program-cost" / "otters.json").read_text(encoding="utf-8")
    assert otters.count(', "surcharge_warriors": 3') == 1
    (tmp_path / "otters.json").write_text(otters.replace(', "surcharge_warriors": 3', ""),
                                          encoding="utf-8")
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "tokens", "name": "x", "version": "1", "requires": ["base"],
         "content": ["otters.json", "library.json"]}), encoding="utf-8")
    programs = {"spread": {
        "law": "8.4.2", "verb": "spread",
        "params": {"token": "piece",
                   "surcharge_warriors": {"type": "number", "default": None}},
        "do": [{"op": "choose", "clearing": {"rule": "self"}},
               {"op": "pay", "piece": "$token", "count": "$surcharge_warriors"},
               {"op": "place", "piece": "$token"}]}}
    (tmp_path / "library.json").write_text(json.dumps(
        {"kind": "library", "id": "x", "programs": programs}), encoding="utf-8")
    path = tmp_path / "otters.json"
    got = [(d.code, d.file, d.line, d.message) for d in findings(tmp_path)
           if d.code == "PROGRAM-USE"]
    assert got == [
        ("PROGRAM-USE", str(path), line_of(path, '{"action": "spread"'),
         "spread: program spread's 'pay' counts with '$surcharge_warriors' at "
         f"/programs/spread/do/1/count ({tmp_path / 'library.json'}), which this entry "
         "leaves out: give it 'surcharge_warriors'")]


# ------------------------------------------------------- a pack's own home program

CULT = Path(__file__).resolve().parent.parent / "examples" / "lizard-cult"


def _cult_home_split(tmp_path, order: tuple[str, str]) -> Path:
    """The Lizard Cult with its home setup (Law 10.3.2) written as two programs of its
    own, in ``order``: 'cult_corner' ends in take_home, and 'cult_neighbours' places a
    warrior in each clearing adjacent to the home, which it reads."""
    pack = tmp_path / "cult"
    shutil.copytree(CULT, pack)
    lib = json.loads((pack / "rites.json").read_text(encoding="utf-8"))
    do = lib["programs"].pop("cult_home")["do"]
    cut = next(i for i, x in enumerate(do) if x["op"] == "take_home") + 1
    lib["programs"]["cult_corner"] = {"law": "10.3.2", "verb": "clearing",
                                      "params": {"gardens": "buildings"}, "do": do[:cut]}
    lib["programs"]["cult_neighbours"] = {"law": "10.3.2", "do": do[cut:]}
    (pack / "rites.json").write_text(json.dumps(lib), encoding="utf-8")
    fac = json.loads((pack / "cult.json").read_text(encoding="utf-8"))
    steps = {"cult_corner": {"op": "cult_corner", "gardens": fac["setup"][0]["gardens"]},
             "cult_neighbours": {"op": "cult_neighbours"}}
    fac["setup"][:1] = [steps[name] for name in order]
    (pack / "cult.json").write_text(json.dumps(fac), encoding="utf-8")
    return pack


def test_a_home_taken_by_a_packs_own_program_is_a_home(tmp_path):
    """SETUP-NO-HOME (Law 10.3.2): a setup step of the pack's own program that ends in
    take_home takes the home, so a later step that reads it is clean; before it, the
    step reading the home is a located error."""
    assert findings(_cult_home_split(tmp_path / "a", ("cult_corner", "cult_neighbours"))) == []
    [d] = findings(_cult_home_split(tmp_path / "b", ("cult_neighbours", "cult_corner")))
    assert (d.code, d.pointer) == ("SETUP-NO-HOME", "/setup/0")
    assert d.file.endswith("cult.json") and "cult_neighbours" in d.message


def test_a_packs_own_corner_home_counts_among_the_corner_takers(tmp_path):
    """MAP-CORNERS-FEW (Law 6.3.2, 7.3.2, 10.3.2): a pack's own home program choosing a
    corner takes one, as the standard ones do; on a map of two corners, the Cult beside
    the Marquise and the Eyrie finds none."""
    pack = tmp_path / "cult"
    shutil.copytree(CULT, pack)
    manifest = json.loads((pack / "pack.json").read_text(encoding="utf-8"))
    manifest["requires"] = ["base", "corner-map"]
    (pack / "pack.json").write_text(json.dumps(manifest), encoding="utf-8")
    found = [d for d in findings(pack, packs=[PACKS / "corner-map"])
             if d.code == "MAP-CORNERS-FEW"]
    assert found and all("lizard-cult" in d.message and "marquise" in d.message
                         for d in found), found


def test_a_steps_field_of_no_type_it_takes_is_one_finding_at_the_field():
    """A step's field binds a program's parameter (a string, a list of strings or a
    number); given an object, pydantic tries each and names each branch in its location
    ('constrained-str', 'list[constrained-str]'): the author sees one finding, at the
    field as the file writes it (a trial's 'if' written as a hook's step)."""
    from rootlaw.spec.loader import validate_data

    f = next(x for x in resolve().factions if x.id == "marquise")
    doc = f.model_dump(by_alias=True, mode="json", exclude_defaults=True)
    doc["turn"]["evening"].append({"op": "draw", "count": {"if": {"did": ["move"]}}})
    _, found, total = validate_data(doc)
    at = f"/turn/evening/{len(doc['turn']['evening']) - 1}/count"
    assert [p for _, _, p in found] == [at], found
    assert total == 1
    assert "'count' gives the program a parameter: a name, a list of names or a whole " \
        "number" in found[0][1]


@pytest.mark.parametrize("lacks, at, words", [
    (["ok", 5], "/lacks/1", "not the number 5"),
    (["Keep"], "/lacks/0", "not 'Keep' (did you mean 'keep'?)"),
    ("Keep", "/lacks", "not 'Keep' (did you mean 'keep'?)"),
])
def test_a_name_or_list_of_names_is_told_once_at_the_item(lacks, at, words):
    """A filter's 'lacks' (a name or a list of names): one finding, at the item that is
    wrong, in the author's words (not pydantic's branch names, nor a program's
    parameter)."""
    from rootlaw.spec.loader import validate_data

    lib = {"kind": "library", "id": "x", "programs": {"p": {"verb": "zap", "do": [
        {"op": "choose", "clearing": {"lacks": lacks}}]}}}
    _, found, total = validate_data(lib)
    assert total == 1 and [p for _, _, p in found] == [f"/programs/p/do/0/clearing{at}"]
    assert "'lacks' is a name" in found[0][1] and words in found[0][1], found
