"""The author's words (issue 12, "For authors"): pydantic's wording ("Field required",
"Extra inputs are not permitted") becomes what the file says, what it should say and
what was meant, with "did you mean" for a misspelt key, value, tag or id.

Each case below is one of the suite's clean fixtures (tests/data/content,
tests/data/semantics) with one defect, and the exact finding an author reads for it.
Then: the same words in every format of ``rootlaw validate``; and no message an author
can get, over a few thousand seeded mutations of the base content and the example packs
(the fuzzers' mutations, tests/fuzz), holds pydantic's own phrases.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from fuzz import common as C
from fuzz import mutate
from pydantic import ValidationError

from rootlaw.runtime.cli import main
from rootlaw.spec import SpecError, loader
from rootlaw.spec.loader import parse_document
from rootlaw.spec.words import did_you_mean, found, suggestion

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
FIXTURES = {
    "faction": DATA / "content" / "good-faction.json",
    "insurgent": DATA / "semantics" / "clean-insurgent.json",
    "cycle": DATA / "semantics" / "clean-cycle.json",
    "map": DATA / "semantics" / "clean-map.json",
    "deck": DATA / "semantics" / "clean-deck.json",
}
PATCH = {"kind": "patch", "target": "faction:marquise",
         "patch": [{"op": "replace", "path": "/turn/daylight/1/count", "value": 4}]}
PACK = {"kind": "pack", "id": "mod", "name": "Mod", "content": ["a.json"]}

PYDANTIC = ("Field required", "Extra inputs are not permitted", "Input should be",
            "Unable to extract tag", "validation error", "type=", "Input tag",
            "should match pattern", "String should", "List should", "Tuple should",
            "Dictionary should", "Value error", "valid dictionary", "[key]")
"""pydantic's own phrases: none may reach an author."""

STEPS = ("place_at_buildings, craft, actions, discard_down_to, add_to_columns, "
         "resolve_columns, choose_role, stop, setup_buildings_near_home, "
         "run_stage, or a program's name")
ID = "an id (lowercase letters, digits and '-', starting with a letter)"


# ---------------------------------------------------------------------- making defects


def _parts(ptr: str) -> list:
    return [int(p) if p.isdigit() else p for p in ptr.split("/")[1:]] if ptr else []


def setv(ptr: str, value):
    def do(doc):
        *up, last = _parts(ptr)
        parent = mutate.get(doc, tuple(up))
        if isinstance(parent, list) and last == len(parent):
            parent.append(value)
        else:
            parent[last] = value
        return doc
    return do


def delete(ptr: str):
    def do(doc):
        mutate.delete(doc, tuple(_parts(ptr)))
        return doc
    return do


def rename(ptr: str, new: str):
    def do(doc):
        *up, last = _parts(ptr)
        parent = mutate.get(doc, tuple(up))
        parent[new] = parent.pop(last)
        return doc
    return do


def whole(value):
    return lambda doc: copy.deepcopy(value)


def base(name: str):
    if name == "patch":
        return copy.deepcopy(PATCH)
    if name == "pack":
        return copy.deepcopy(PACK)
    return json.loads(FIXTURES[name].read_text(encoding="utf-8"))


def findings(doc) -> list[tuple[str, str, str]]:
    with pytest.raises(SpecError) as e:
        parse_document(json.dumps(doc, indent=2), "f.json")
    return [(d.code, d.pointer, d.message) for d in e.value.diagnostics]


# (what, fixture, defect, [(code, pointer, message)]): the whole of what the author reads
CASES = [
    # Keys: unknown (a typo, with the real key also missing) and missing.
    ("misspelt key", "faction", rename("/pieces/otter-warrior/count", "cout"), [
        ("KEY-MISSING", "/pieces/otter-warrior/count",
         "a piece needs 'count' (did you mean 'count' where it says 'cout'?): the whole "
         "supply (Law 1.5.1)"),
        ("KEY-UNKNOWN", "/pieces/otter-warrior/cout",
         "'cout' is not a key of a piece (did you mean 'count'?); a piece has: kind, count, "
         "track, permanent_removal, suit, per_clearing, value, reveals, faces, type, "
         "carries, other_face")]),
    ("missing key", "faction", delete("/pieces/dock/count"), [
        ("KEY-MISSING", "/pieces/dock/count",
         "a piece needs 'count': the whole supply (Law 1.5.1)")]),
    ("missing top key", "faction", delete("/setup_order"), [
        ("KEY-MISSING", "/setup_order",
         "a faction needs 'setup_order': setup letter order (Law 5.1.7): lower sets up "
         "first")]),
    ("unknown key, nothing close", "faction", setv("/pieces/dock/colour", "red"), [
        ("KEY-UNKNOWN", "/pieces/dock/colour",
         "'colour' is not a key of a piece; a piece has: kind, count, track, "
         "permanent_removal, suit, per_clearing, value, reveals, faces, type, carries, "
         "other_face")]),
    ("unknown key of a count from a box", "insurgent",
     setv("/turn/evening/0/count", {"bx": "captains"}), [
         ("KEY-MISSING", "/turn/evening/0/count/box",
          "a count from a box needs 'box' (did you mean 'box' where it says 'bx'?)"),
         ("KEY-UNKNOWN", "/turn/evening/0/count/bx",
          "'bx' is not a key of a count from a box (did you mean 'box'?); a count from a "
          "box has: box")]),
    ("unknown key of an effect op", "deck", rename("/cards/2/on_craft/0/count", "cuont"), [
        ("KEY-UNKNOWN", "/cards/2/on_craft/0/cuont",
         "'cuont' is not a key of a 'draw' effect op or part (did you mean 'count'?); a "
         "'draw' effect op or part has: op, count, into, who")]),
    # Types: what the schema takes, and what the file has.
    ("a number as text", "faction", setv("/pieces/dock/count", "25"), [
        ("VALUE-INVALID", "/pieces/dock/count",
         "'count' is a whole number, not the text \"25\"")]),
    ("a number as true", "faction", setv("/setup_order", True), [
        ("VALUE-INVALID", "/setup_order", "'setup_order' is a whole number, not true")]),
    ("a fraction", "faction", setv("/pieces/dock/count", 2.5), [
        ("VALUE-INVALID", "/pieces/dock/count",
         "'count' is a whole number, not the number 2.5")]),
    ("a boolean as a number", "faction", setv("/pieces/dock/permanent_removal", 1), [
        ("VALUE-INVALID", "/pieces/dock/permanent_removal",
         "'permanent_removal' is true or false, not the number 1")]),
    ("text as a number", "faction", setv("/name", 5), [
        ("VALUE-INVALID", "/name", "'name' is text, not the number 5")]),
    ("a list as an object", "faction", setv("/setup", {}), [
        ("VALUE-INVALID", "/setup", "'setup' is a list, not an empty object")]),
    ("an object as a list", "faction", setv("/pieces", []), [
        ("VALUE-INVALID", "/pieces", "'pieces' is an object, not an empty list")]),
    ("an object as a number", "faction", setv("/pieces/dock/track", 3), [
        ("VALUE-INVALID", "/pieces/dock/track", "'track' is an object, not the number 3")]),
    ("a step that is not an object", "faction", setv("/turn/evening/1", "true"), [
        ("VALUE-INVALID", "/turn/evening/1",
         "a step is an object with 'op', not the text \"true\"")]),
    ("a clearing that is not an object", "map", setv("/clearings/0", 3), [
        ("VALUE-INVALID", "/clearings/0", "a clearing is an object, not the number 3")]),
    ("a pair that is not one", "map", setv("/clearings/0/position", [1, 2, 3]), [
        ("VALUE-INVALID", "/clearings/0/position",
         "'position' is a pair of numbers [a, b], not a list of 3 items")]),
    ("a clearing number as text", "map", setv("/paths/0/1", "x"), [
        ("VALUE-INVALID", "/paths/0/1", "each value in 'paths' is a whole number, not the "
                                        "text \"x\"")]),
    ("a count of an item as text", "deck", setv("/items/boot", "one"), [
        ("VALUE-INVALID", "/items/boot", "'boot' in 'items' is a whole number, not the "
                                         "text \"one\"")]),
    ("a hook that is not a list", "cycle", setv("/hooks/high-water", 3), [
        ("VALUE-INVALID", "/hooks/high-water",
         "'high-water' in 'hooks' is a list, not the number 3")]),
    ("an actions count as text", "insurgent", setv("/turn/birdsong/0/count", "x"), [
        ("VALUE-INVALID", "/turn/birdsong/0/count",
         "'count' is a whole number, an object or null, not the text \"x\"")]),
    ("a count of stages too few", "cycle", setv("/cycles/0/stages", ["ebb"]), [
        ("VALUE-INVALID", "/cycles/0/stages", "'stages' needs at least 2 items, not 1")]),
    ("a stage's hooks empty", "cycle", setv("/turn/birdsong/1/hooks", {}), [
        ("VALUE-INVALID", "/turn/birdsong/1/hooks", "'hooks' needs at least 1 entry, not 0")]),
    ("a position off the board", "map", setv("/clearings/0/position", [101, 5]), [
        ("VALUE-INVALID", "/clearings/0/position/0",
         "each entry of 'position' is from 0 to 100, not 101")]),
    ("a document that is not an object", "faction", whole([]), [
        ("VALUE-INVALID", "", "a content file is an object with 'kind', not an empty list")]),
    # Numbers out of range, lengths.
    ("a count of 0", "faction", setv("/pieces/dock/count", 0), [
        ("VALUE-INVALID", "/pieces/dock/count", "'count' is from 1 to 64, not 0")]),
    ("a count too big", "faction", setv("/pieces/dock/count", 10**30), [
        ("VALUE-INVALID", "/pieces/dock/count",
         "'count' is from 1 to 64, not a number of 31 digits")]),
    ("a track row as text", "cycle", setv("/pieces/nest/track/vp", "x"), [
        ("VALUE-INVALID", "/pieces/nest/track/vp", "'vp' is a list, not the text \"x\"")]),
    ("a track space below 0", "cycle", setv("/pieces/nest/track/vp/1", -1), [
        ("VALUE-INVALID", "/pieces/nest/track/vp/1", "each entry of 'vp' is from 0 to 100, "
                                                     "not -1")]),
    ("slots past 6", "map", setv("/clearings/0/slots", 7), [
        ("VALUE-INVALID", "/clearings/0/slots", "'slots' is from 0 to 6, not 7")]),
    ("an item supply too big", "deck", setv("/items/boot", 65), [
        ("VALUE-INVALID", "/items/boot", "'boot' in 'items' is from 0 to 64, not 65")]),
    ("a map of one clearing", "map", lambda d: {**d, "clearings": d["clearings"][:1]}, [
        ("VALUE-INVALID", "/clearings", "'clearings' needs at least 2 items, not 1")]),
    ("a patch of no operations", "patch", setv("/patch", []), [
        ("VALUE-INVALID", "/patch", "'patch' needs at least 1 item, not 0")]),
    ("an id too long", "faction", setv("/id", "a" * 65), [
        ("VALUE-INVALID", "/id", "'id' is at most 64 characters long, not 65")]),
    # A value not among a literal's choices.
    ("a misspelt suit", "map", setv("/clearings/0/suit", "foks"), [
        ("VALUE-INVALID", "/clearings/0/suit",
         "'suit' is fox, rabbit or mouse, not 'foks' (did you mean 'fox'?)")]),
    ("a misspelt piece kind", "faction", setv("/pieces/dock/kind", "buildin"), [
        ("VALUE-INVALID", "/pieces/dock/kind",
         "'kind' is warrior, building or token, not 'buildin' (did you mean 'building'?)")]),
    ("a cost of no suit", "deck", setv("/cards/0/cost/0", "bear"), [
        ("VALUE-INVALID", "/cards/0/cost/0",
         "each entry of 'cost' is fox, rabbit, mouse or any, not 'bear'")]),
    ("a misspelt timing", "deck", setv("/cards/1/abilities/0/timing", "daylite"), [
        ("VALUE-INVALID", "/cards/1/abilities/0/timing",
         "'timing' is start_of_birdsong, start_of_daylight, start_of_evening, birdsong, "
         "daylight, evening, battle_before_roll, battle_after_roll, end_of_birdsong, "
         "end_of_daylight or evening_draw, not 'daylite' (did you mean 'daylight'?)")]),
    ("a suit as a number", "map", setv("/clearings/0/suit", 3), [
        ("VALUE-INVALID", "/clearings/0/suit", "'suit' is fox, rabbit or mouse, not the "
                                               "number 3")]),
    # Tags of tagged unions: unknown (did you mean) and missing.
    # (a misspelt op names no program: PROGRAM-REF, test_a_steps_defects_are_told_...)
    ("an op that is no name", "faction", setv("/turn/evening/0/op", "Draw"), [
        ("VALUE-INVALID", "/turn/evening/0/op",
         "'op' is a program's name (lowercase letters, digits, '_' and '-', starting with "
         "a letter), not 'Draw'")]),
    ("a step without op", "faction", delete("/turn/evening/0/op"), [
        ("KEY-MISSING", "/turn/evening/0", f"a step needs 'op', saying which: {STEPS}")]),
    ("a step with a misspelt op key", "faction", rename("/turn/evening/0/op", "o"), [
        ("KEY-MISSING", "/turn/evening/0",
         f"a step needs 'op' (did you mean 'op' where it says 'o'?), saying which: "
         f"{STEPS}")]),
    ("a misspelt ability kind", "deck", setv("/cards/1/abilities/0/kind", "efect"), [
        ("VALUE-INVALID", "/cards/1/abilities/0",
         "'kind' must name an ability: rule, numbers, battle, "
         "exclusive_placement, moving, effect, trigger, offer, "
         "not 'efect' (did you mean 'effect'?)")]),
    ("a misspelt effect op", "deck", setv("/cards/2/on_craft/0/op", "drow"), [
        ("VALUE-INVALID", "/cards/2/on_craft/0",
         "'op' must name an effect op or part: score, draw, remove, discard_all, "
         "give, show, into_box, place, hits, actions, "
         "discard_down_to, if, discard, move, take, not 'drow' (did you mean 'draw'?)")]),
    ("a misspelt document kind", "faction", setv("/kind", "fraction"), [
        ("VALUE-INVALID", "", "'kind' must name a content file: pack, map, deck, faction, "
                              "patch, library, not 'fraction' (did you mean 'faction'?)")]),
    ("a kind that is a number", "faction", setv("/kind", 3), [
        ("VALUE-INVALID", "", "'kind' must name a content file: pack, map, deck, faction, "
                              "patch, library, not the number 3")]),
    ("a misspelt patch operation", "patch", setv("/patch/0/op", "replac"), [
        ("VALUE-INVALID", "/patch/0",
         "'op' must name a patch operation: add, remove, replace, move, copy, test, not "
         "'replac' (did you mean 'replace'?)")]),
    ("an RFC member misspelt", "patch", rename("/patch/0/value", "vaule"), [
        ("KEY-MISSING", "/patch/0/value",
         "a 'replace' patch operation needs 'value' (did you mean 'value' where it says "
         "'vaule'?)"),
        ("KEY-UNKNOWN", "/patch/0/vaule",
         "'vaule' is not a key of a 'replace' patch operation (did you mean 'value'?); a "
         "'replace' patch operation has: op, path, value")]),
    ("a move without from", "patch",
     setv("/patch/0", {"op": "move", "path": "/name"}), [
         ("KEY-MISSING", "/patch/0/from", "a 'move' patch operation needs 'from'")]),
    # Patterns: ids, colours, pointers, patch targets.
    ("an id in capitals", "faction", setv("/turn/birdsong/0/piece", "Otter-Warrior"), [
        ("VALUE-INVALID", "/turn/birdsong/0/piece",
         f"'piece' is {ID}, not 'Otter-Warrior' (did you mean 'otter-warrior'?)")]),
    ("a piece id with a space", "faction",
     lambda d: {**d, "pieces": {"Otter Warrior" if k == "otter-warrior" else k: v
                                for k, v in d["pieces"].items()}}, [
         ("VALUE-INVALID", "/pieces/Otter Warrior",
          f"each key of 'pieces' is {ID}, not 'Otter Warrior' (did you mean "
          "'otter-warrior'?)")]),
    ("a colour by name", "faction", setv("/color", "red"), [
        ("VALUE-INVALID", "/color", "'color' is a colour '#rrggbb', not 'red'")]),
    ("a patch target with a slash", "patch", setv("/target", "faction/marquise"), [
        ("VALUE-INVALID", "/target", "'target' is kind:id, the kind map, deck or faction "
                                     "(like 'faction:marquise'), not 'faction/marquise'")]),
    ("a patch path without a slash", "patch", setv("/patch/0/path", "turn"), [
        ("VALUE-INVALID", "/patch/0/path", "'path' is a JSON pointer ('' for the whole "
                                           "document, or like '/turn/daylight/1/count'), "
                                           "not 'turn'")]),
    ("a manifest's content as a number", "pack", setv("/content", 3), [
        ("VALUE-INVALID", "/content", "'content' is a list, not the number 3")]),
    # A content file without a kind: what kinds there are (and that scenarios differ).
    ("no kind", "faction", whole({"id": "x"}), [
        ("KEY-MISSING", "", "a content file needs 'kind', saying which: pack, map, deck, "
                            "faction, patch, library; a rules scenario has no 'kind' but its "
                            "own keys (position, steps ...): see docs/scenarios.md")]),
    # References to ids that are not defined (the models' validators): did you mean.
    ("a misspelt piece", "faction", setv("/turn/birdsong/0/building", "dok"), [
        ("REF-UNDEF", "/turn/birdsong/0/building",
         "step place_at_buildings: unknown piece 'dok' (did you mean 'dock'?)")]),
    ("an unknown piece, nothing close", "faction", setv("/turn/birdsong/0/building",
                                                        "timber"), [
        ("REF-UNDEF", "/turn/birdsong/0/building",
         "step place_at_buildings: unknown piece 'timber' (known: otter-warrior, dock)")]),
    ("a misspelt zone", "insurgent", setv("/turn/daylight/0/menu/1/zone", "frends"), [
        ("REF-UNDEF", "/turn/daylight/0/menu/1/zone",
         "menu mobilize: unknown zone 'frends' (did you mean 'friends'?)")]),
    ("a misspelt box", "insurgent", setv("/turn/evening/0/count/box", "captain"), [
        ("REF-UNDEF", "/turn/evening/0/count/box",
         "step actions: unknown box 'captain' (did you mean 'captains'?)")]),
    ("a misspelt cycle", "cycle", setv("/turn/evening/2/cycle", "tyde"), [
        ("REF-UNDEF", "/turn/evening/2/cycle",
         "step advance_cycle: unknown cycle 'tyde' (did you mean 'tide'?)")]),
    ("a misspelt stage", "cycle", setv("/turn/birdsong/1/hooks", {"flod": "high-water"}), [
        ("REF-UNDEF", "/turn/birdsong/1/hooks/flod",
         "step run_stage: cycle tide has no stage 'flod' (did you mean 'flood'?)")]),
    ("a misspelt hook", "cycle", setv("/turn/birdsong/1/hooks/flood", "high-waters"), [
        ("REF-UNDEF", "/turn/birdsong/1/hooks/flood",
         "step run_stage: unknown hook 'high-waters' (did you mean 'high-water'?)")]),
    ("a misspelt start stage", "cycle", setv("/cycles/0/start", "eb"), [
        ("REF-UNDEF", "/cycles/0/start",
         "cycle tide: 'eb' is not one of its stages (did you mean 'ebb'?)")]),
    ("a misspelt item", "deck", setv("/cards/0/item", "boots"), [
        ("REF-UNDEF", "/cards/0/item", "card 'old-boots': unknown item 'boots' (did you "
                                       "mean 'boot'?)")]),
    ("a misspelt forest", "map", setv("/forest_adjacency/0/1", "3_4_7"), [
        ("REF-UNDEF", "/forest_adjacency/0/1",
         "forest_adjacency: unknown forest '3_4_7' (did you mean '3_4_6'?)")]),
]


@pytest.mark.parametrize("what, fixture, defect, expected", CASES, ids=[c[0] for c in CASES])
def test_a_defect_is_told_in_the_authors_words(what, fixture, defect, expected):
    doc = defect(base(fixture))
    got = findings(doc)
    assert got == expected
    for _, _, message in got:
        assert not any(p in message for p in PYDANTIC), message


def test_the_fixtures_are_clean():
    # Every case above is one of these with one defect.
    for name in (*FIXTURES, "patch", "pack"):
        parse_document(json.dumps(base(name)), f"{name}.json")


def test_a_key_that_is_not_a_dict_key_is_located_at_the_key():
    """pydantic marks a bad key of an object with '[key]' after it: the pointer is the
    key's own (and its line), not '/pieces/Otter Warrior/[key]'."""
    doc = base("faction")
    doc["pieces"]["Bad Id"] = doc["pieces"].pop("dock")
    text = json.dumps(doc, indent=2)
    with pytest.raises(SpecError) as e:
        parse_document(text, "f.json")
    d = next(d for d in e.value.diagnostics if d.pointer.startswith("/pieces/Bad Id"))
    assert d.pointer == "/pieces/Bad Id"
    assert d.line == text[:text.index('"Bad Id"')].count("\n") + 1


def test_did_you_mean_suggests_close_names_only():
    assert did_you_mean("cout", ["kind", "count", "track"]) == " (did you mean 'count'?)"
    assert suggestion("foks", ["fox", "rabbit", "mouse"]) == "fox"
    assert suggestion("Fox", ["fox", "rabbit"]) == "fox"  # another case is the same word
    assert suggestion("rescue-removed_warriors", ["rescue_removed_warriors"]) == \
        "rescue_removed_warriors"
    # Not a misspelling: nothing is suggested.
    assert suggestion("cats", ["marquise", "eyrie", "alliance"]) is None
    assert suggestion("night", ["birdsong", "daylight", "evening"]) is None
    assert suggestion(3, ["3"]) is None and suggestion("", ["a"]) is None
    assert did_you_mean("count", ["count"]) == ""  # the word itself is no suggestion
    # Among very many names only a case-folded match is looked for (bounded time).
    many = [f"piece-{i}" for i in range(5000)]
    assert suggestion("piece-1x", many) is None and suggestion("PIECE-7", many) == "piece-7"


@pytest.mark.parametrize("value, words", [
    (None, "null"), (True, "true"), (False, "false"), (3, "the number 3"),
    (2.5, "the number 2.5"), (10**30, "a number of 31 digits"), ("25", 'the text "25"'),
    ("", 'the empty text ""'), ("x" * 50, f'the text "{"x" * 40}..."'), ([], "an empty list"),
    ([1], "a list of 1 item"), ([1, 2], "a list of 2 items"), ({}, "an empty object"),
    ({"a": 1}, "an object"),
])
def test_what_a_value_is_in_words(value, words):
    assert found(value) == words


# ---------------------------------------------------------------------- every format


def test_every_format_of_validate_tells_the_same_words(tmp_path, capsys):
    doc = rename("/pieces/otter-warrior/count", "cout")(base("faction"))
    doc["pieces"]["dock"]["kind"] = "buildin"
    f = tmp_path / "mod.json"
    f.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    want = findings(doc)
    messages = [m for _, _, m in want]
    assert any("did you mean 'count'?" in m for m in messages)
    assert any("did you mean 'building'?" in m for m in messages)

    assert main(["validate", str(f)]) == 1
    text = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 2)[2] for line in text] == messages
    assert [line.split(": ", 2)[1] for line in text] == \
        [f"{code} at {ptr}" for code, ptr, _ in want]

    assert main(["validate", "--format", "json", str(f)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [(x["code"], x["pointer"], x["message"]) for x in out["findings"]] == want

    assert main(["validate", "--format", "github", str(f)]) == 1
    lines = capsys.readouterr().out.splitlines()[:-1]
    assert [x.split("::", 2)[2] for x in lines] == \
        [f"{m} (at {ptr})" for _, ptr, m in want]
    assert not any(p in line for line in text + lines for p in PYDANTIC)


def test_a_patched_document_is_told_in_the_same_words(tmp_path):
    """The patched document is validated like any file: its findings are in the patch,
    in the same words."""
    pack = tmp_path / "mod"
    pack.mkdir()
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "mod", "name": "Mod", "requires": ["base"],
         "content": ["p.json"]}), encoding="utf-8")
    (pack / "p.json").write_text(json.dumps(
        {"kind": "patch", "target": "faction:marquise",
         "patch": [{"op": "replace", "path": "/turn/daylight/1/count", "value": "4"},
                   {"op": "add", "path": "/turn/evening/1/limt", "value": 1}]}, indent=2),
        encoding="utf-8")
    from rootlaw.spec.validate import validate

    got = sorted((d.code, d.pointer, d.message) for d in validate([pack]).diagnostics)
    assert got == [
        ("KEY-UNKNOWN", "/patch/1",
         "'limt' is not a key of a 'discard_down_to' step (did you mean 'limit'?); a "
         "'discard_down_to' step has: op, limit, zone (in faction:marquise as patched, at "
         "/turn/evening/1/limt)"),
        ("VALUE-INVALID", "/patch/0",
         "'count' is a whole number, an object or null, not the text \"4\" (in "
         "faction:marquise as patched, at /turn/daylight/1/count)"),
    ]


# ---------------------------------------------------------------------- no pydantic words


def _mutants(count: int, seed: int):
    """Seeded mutants of the base content and the example packs' documents (the
    fuzzer's generic mutations: numbers, strings, types, deleted keys, lists)."""
    rng = random.Random(seed)
    srcs = C.sources()
    pools = mutate.Pools([s.data for s in srcs])
    for _ in range(count):
        src = rng.choice(srcs)
        doc = copy.deepcopy(src.data)
        for _ in range(rng.randint(1, 3)):
            rng.choice(mutate.GENERIC)(doc, rng, pools)
        if rng.random() < 0.2:  # a misspelt key
            hit = [(p, v) for p, v in mutate.nodes(doc) if p and isinstance(p[-1], str)]
            if hit:
                path, _ = rng.choice(hit)
                parent = mutate.get(doc, path[:-1])
                parent[path[-1][:-1] + "x"] = parent.pop(path[-1])
        yield doc


def test_no_message_an_author_can_get_holds_pydantics_words():
    """Over 2,000 seeded mutants: every error pydantic gives is told in the author's
    words, and the mutants meet every kind of error the models can give."""
    kinds: dict[str, int] = {}
    messages = 0
    # (a model's class name run together, "battleattacking": never an author's word)
    import re

    from pydantic import BaseModel

    from rootlaw.spec import models as M
    classes = {c.__name__.lower() for c in vars(M).values() if isinstance(c, type) and
               issubclass(c, BaseModel) and len(re.findall("[A-Z]", c.__name__)) > 1}
    for doc in _mutants(2000, 12):
        data = loader._strip_schema_key(doc)
        try:
            loader._DOCUMENT.validate_python(data)
        except ValidationError as e:
            for err in e.errors(include_url=False):
                kinds[err["type"]] = kinds.get(err["type"], 0) + 1
        _, problems, _ = loader.validate_data(data)
        for code, message, ptr in problems:
            messages += 1
            assert message and not any(p in message for p in PYDANTIC), \
                (code, ptr, message)
            assert not set(re.findall(r"[a-z]+", message)) & classes, (code, ptr, message)
            assert "[key]" not in ptr
    assert messages > 1000
    met = {"missing", "extra_forbidden", "union_tag_invalid", "union_tag_not_found",
           "literal_error", "string_pattern_mismatch", "string_type", "int_type",
           "bool_type", "list_type", "model_type", "model_attributes_type",
           "less_than_equal", "greater_than_equal", "too_short", "too_long",
           "string_too_long", "value_error", "tuple_type"}
    assert met <= set(kinds), sorted(met - set(kinds))



@pytest.mark.parametrize("side, keys", [("attacking", "extra_hits, ambush_ignored, holds"),
                                         ("defending", "deal_high_roll, extra_hits, holds")])
def test_an_object_with_no_noun_is_named_by_its_key(side, keys):
    """A small object of a part (a battle ability's 'attacking') is named by the key it is
    written at, not by the engine's class name ("a battleattacking", an outside author's
    finding)."""
    doc = {"kind": "faction", "id": "herons", "name": "Herons", "pieces": {
        "heron": {"kind": "warrior", "count": 5}},
        "abilities": [{"kind": "battle", "id": "wrath", side: {"whenever": {"not": 1}}}]}
    _, problems, _ = loader.validate_data(doc)
    said = [m for _, m, ptr in problems if ptr == f"/abilities/0/{side}/whenever"]
    assert said == [f"'whenever' is not a key of '{side}'; '{side}' has: {keys}"]


# ---------------------------------------------------------------------- references


def _pack(tmp_path: Path, files: dict, **manifest) -> Path:
    pack = tmp_path / "mod"
    pack.mkdir()
    (pack / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "mod", "name": "Mod", "requires": ["base"],
         "content": list(files), **manifest}, indent=2), encoding="utf-8")
    for name, doc in files.items():
        (pack / name).write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return pack


def test_a_cards_piece_no_faction_has_names_the_piece_meant(tmp_path):
    """The bundle check of a card's trigger (semantics, REF-UNDEF): the factions'
    pieces are what it may name."""
    deck = base("deck")
    deck["id"] = "mod-deck"
    deck["cards"].append({
        "id": "alarm", "name": "Alarm", "suit": "fox", "kind": "persistent", "cost": ["fox"],
        "abilities": [{"kind": "trigger", "id": "alarm", "on": "pieces_removed",
                       "pieces": ["sawmil", "quarry"], "do": [{"op": "draw"}]}]})
    pack = _pack(tmp_path, {"deck.json": deck})
    from rootlaw.spec.validate import validate

    got = [(d.code, d.pointer, d.message) for d in validate([pack]).diagnostics
           if d.code == "REF-UNDEF"]
    assert got == [
        ("REF-UNDEF", "/cards/3/abilities/0/pieces/0",
         "card alarm: no faction has a piece 'sawmil' (did you mean 'sawmill'?)"),
        ("REF-UNDEF", "/cards/3/abilities/0/pieces/1",
         "card alarm: no faction has a piece 'quarry'")]


def test_names_are_looked_for_only_for_the_findings_a_file_lists(tmp_path, monkeypatch):
    """A trigger naming 20,000 pieces no faction has: 100 findings are listed, and a
    piece meant is looked for for those only (each look compares the name with every
    piece: found by timing a fuzzed deck, 2.4 s before)."""
    import rootlaw.spec.semantics as S

    calls = []
    real = S.did_you_mean
    monkeypatch.setattr(S, "did_you_mean", lambda *a: calls.append(a) or real(*a))
    deck = base("deck")
    deck["id"] = "mod-deck"
    deck["cards"].append({
        "id": "alarm", "name": "Alarm", "suit": "fox", "kind": "persistent", "cost": ["fox"],
        "abilities": [{"kind": "trigger", "id": "alarm", "on": "pieces_removed",
                       "pieces": [f"sawmill-{i}" for i in range(20000)],
                       "do": [{"op": "draw"}]}]})
    from rootlaw.spec.validate import validate

    diags = validate([_pack(tmp_path, {"deck.json": deck})]).diagnostics
    assert [d.code for d in diags] == ["REF-UNDEF"] * 100 + ["TOO-MANY"]
    assert 0 < len(calls) <= 100


def test_a_misspelt_default_map_names_the_map_meant(tmp_path):
    pack = _pack(tmp_path, {}, default_map="autum")
    from rootlaw.spec.validate import validate

    [d] = validate([pack]).diagnostics
    assert (d.code, d.pointer, d.message) == (
        "REF-UNDEF", "/default_map",
        "default_map: no map 'autum' in this pack or the packs it requires (did you mean "
        "'autumn'?)")


@pytest.mark.parametrize("args, said", [
    (["play", "--factions", "marquise,eyri"],
     "rootlaw: REF-UNDEF: unknown faction 'eyri' (did you mean 'eyrie'?)"),
    (["play", "--factions", "marquise,eyrie", "--map", "autum"],
     "<input>: REF-UNDEF: unknown map 'autum' (did you mean 'autumn'?)"),
])
def test_a_misspelt_faction_or_map_on_the_command_line_names_the_one_meant(capsys, args,
                                                                           said):
    assert main(args) == 1
    assert capsys.readouterr().err.strip() == said


def test_a_misspelt_name_in_the_position_api_names_the_one_meant():
    from rootlaw.runtime import Game
    from rootlaw.runtime import position as pos
    from rootlaw.runtime.errors import RootlawError

    g = Game(["marquise", "eyrie"], 1)
    with pytest.raises(RootlawError) as e:
        pos.piece_index(g, "cat-warior")
    assert (e.value.code, e.value.message) == \
        ("REF-UNDEF", "unknown piece 'cat-warior' (did you mean 'cat-warrior'?)")


# ---------------------------------------------------------------------- scenario files


def test_a_scenario_file_is_told_in_the_same_words_in_every_format(capsys):
    """A scenario's reader (runtime/scenario.py) speaks rootlaw.spec.words too: an
    unknown key, a value of the wrong type or out of range, a misspelt name."""
    path = DATA / "scenarios" / "invalid" / "expect-typo.json"
    assert main(["validate", str(path)]) == 1
    text = capsys.readouterr().out.strip()
    message = text.split(": ", 2)[2]
    assert message.startswith("'peices' is not a key of 'expect' (did you mean 'pieces'?); "
                              "'expect' has: available_dominance, ")
    assert main(["validate", "--format", "json", str(path)]) == 1
    [finding] = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["code"], finding["pointer"], finding["message"]) == \
        ("SCENARIO-INVALID", "/expect/peices", message)
    assert main(["validate", "--format", "github", str(path)]) == 1
    annotation = capsys.readouterr().out.splitlines()[0]
    assert annotation.split("::", 2)[2] == f"{message} (at /expect/peices)"


@pytest.mark.parametrize("pointer_, value, said", [
    ("/position/pieces/5/cat-warior", 1,
     "unknown piece 'cat-warior' (did you mean 'cat-warrior'?)"),
    ("/position/pieces/5/cat-warrior", "3",
     "'cat-warrior' is a count of pieces, not the text \"3\""),
    ("/position/pieces/5/cat-warrior", 26, "'cat-warrior' is from 0 to 25, not 26"),
    ("/position/turn/phase", "daylite", "unknown phase 'daylite' (did you mean 'daylight'?)"),
    ("/position/turn/faction", "eyri",
     "unknown seated faction 'eyri' (did you mean 'eyrie'?)"),
    ("/stop_at", "end_of_trun",
     "'stop_at' is end_of_turn or end_of_phase, not 'end_of_trun' (did you mean "
     "'end_of_turn'?)"),
])
def test_a_scenario_value_is_told_in_contents_words(pointer_, value, said):
    from rootlaw.runtime import scenario as sc

    data = {"factions": ["marquise", "eyrie"], "seed": 1,
            "position": {"clear": True, "pieces": {"5": {"cat-warrior": 3}},
                         "turn": {"faction": "marquise", "phase": "daylight"}},
            "steps": [{"do": [], "expect": {}}]}
    *up, last = pointer_.split("/")[1:]
    at = data
    for p in up:
        at = at[p]
    at[last] = value
    problems = sc.run_scenario(data, where="f.json")
    assert problems == [f"f.json#{pointer_}: SCENARIO-INVALID: {said}"]
    assert not any(p in problems[0] for p in PYDANTIC)


# ---------------------------------------------------------------------- the docs


def test_the_findings_the_authoring_guide_quotes_are_what_the_loader_says():
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    block = doc.split("Some of what the loader says", 1)[1].split("```text\n", 1)[1]
    quoted_lines = block.split("```", 1)[0].strip().splitlines()
    said = {f"{code} at {ptr}: {message}" for _, fixture, defect, expected in CASES
            for code, ptr, message in expected}
    assert len(quoted_lines) >= 8
    for line in quoted_lines:
        assert line in said, line


def test_the_readmes_example_is_what_validate_prints(tmp_path, capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("e.g.\n`", 1)[1].split("`", 1)[0]
    file, line, said = example.split(":", 2)
    lines = ['{', '  "kind": "faction",', '  "id": "mod",', '  "name": "Mod",',
             '  "setup_order": 5,', '  "setup": [],', '  "turn": {},',
             '  "pieces": {', '    "hut": {"kind": "building", "count": 3},',
             '    "warrior": {', '      "kind": "warrior",', '      "cout": 25', '    }',
             '  }', '}']
    (tmp_path / "mod").mkdir()
    (tmp_path / file).write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", file]) == 1
    assert f"{file}:{line}:{said}" in capsys.readouterr().out.splitlines()


def test_the_packs_guides_patched_finding_is_what_validate_prints(tmp_path, capsys,
                                                                  monkeypatch):
    doc = (ROOT / "docs" / "packs.md").read_text(encoding="utf-8")
    printed = next(x for x in doc.splitlines()
                   if x.startswith("examples/four-actions/four-actions.json:"))
    import shutil

    shutil.copytree(ROOT / "examples" / "four-actions", tmp_path / "examples" / "four-actions")
    f = tmp_path / "examples" / "four-actions" / "four-actions.json"
    text = f.read_text(encoding="utf-8")
    assert text.count('"value": 4}') == 1
    f.write_text(text.replace('"value": 4}', '"value": "4"}'), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "--play", "0", "examples/four-actions"]) == 1
    assert capsys.readouterr().out.splitlines() == [printed]


def _validated_in_a_pack(tmp_path: Path, doc: dict) -> list[tuple[str, str, str]]:
    """A faction with a defect, validated in a pack beside the base game's."""
    from rootlaw.spec.validate import validate

    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "mod", "name": "Mod", "requires": ["base"],
         "content": ["faction.json"]}), encoding="utf-8")
    (tmp_path / "faction.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return [(d.code, d.pointer, d.message) for d in validate([tmp_path], []).diagnostics]


def test_a_menu_entrys_defects_are_told_in_the_authors_words(tmp_path):
    """A menu entry names a program and binds its parameters, so what it may say is the
    program's (docs/language.md): a misspelt field and a misspelt action are found by
    validation at the entry, in the author's words, with "did you mean"."""
    doc = rename("/turn/birdsong/0/menu/1/zone", "zones")(base("insurgent"))
    got = _validated_in_a_pack(tmp_path, doc)
    assert got == [
        ("PROGRAM-USE", "/turn/birdsong/0/menu/1",
         "spread: program spread has a zone parameter 'zone', and a 'spread' entry has no "
         "'zone' to give it (did you mean 'zone' where it says 'zones'?) (its fields: "
         "token, surcharge_warriors, zones)"),
        ("FIELD-UNREAD", "/turn/birdsong/0/menu/1/zones",
         "spread: program spread has no parameter 'zones' (did you mean 'zone'?) (its "
         "parameters: token, zone, surcharge_warriors, surcharge)")]
    doc = setv("/turn/daylight/1/menu/2/action", "bild")(base("cycle"))
    [(code, pointer, message)] = [x for x in _validated_in_a_pack(tmp_path, doc)
                                  if x[0].startswith("PROGRAM-")]
    assert (code, pointer) == ("PROGRAM-REF", "/turn/daylight/1/menu/2/action")
    assert message.startswith("'bild' is no action or program (did you mean 'build'?) (the "
                              "Law's: battle, march, craft; programs: advance_cycle, build, ")
    for _, _, message in got:
        assert not any(p in message for p in PYDANTIC), message


def test_a_steps_defects_are_told_in_the_authors_words(tmp_path):
    """A step names a program as a menu entry does (models.ProgramStep), so what it may
    say is the program's: a misspelt op and a misspelt field are found by validation at
    the step, in the author's words, with "did you mean"; a required parameter left out
    is located at the step."""
    doc = setv("/turn/evening/0/op", "drwa")(base("faction"))
    [(code, pointer, message)] = [x for x in _validated_in_a_pack(tmp_path, doc)
                                  if x[0].startswith("PROGRAM-")]
    assert (code, pointer) == ("PROGRAM-REF", "/turn/evening/0/op")
    assert message.startswith("'drwa' is no step or program (did you mean 'draw'?) (the "
                              "engine's steps: place_at_buildings, craft, actions, ")
    doc = rename("/turn/evening/0/count", "cuont")(base("faction"))
    # An error, as the step models' closed keys were (KEY-UNKNOWN at the key).
    assert _validated_in_a_pack(tmp_path, doc) == [
        ("KEY-UNKNOWN", "/turn/evening/0/cuont",
         "draw: program draw has no parameter 'cuont' (did you mean 'count'?) (its "
         "parameters: count, bonus_building, bonus_buildings)")]
    doc = setv("/turn/evening/1", {"op": "score_track", "biulding": "dock"})(base("faction"))
    got = _validated_in_a_pack(tmp_path, doc)
    assert ("PROGRAM-USE", "/turn/evening/1",
            "score_track: program score_track has a building parameter 'building', and a "
            "'score_track' step has no 'building' to give it (did you mean 'building' where "
            "it says 'biulding'?) (its fields: biulding)") in got
    assert ("KEY-UNKNOWN", "/turn/evening/1/biulding",
            "score_track: program score_track has no parameter 'biulding' (did you mean "
            "'building'?) (its parameters: building)") in got
    for _, _, message in got:
        assert not any(p in message for p in PYDANTIC), message
