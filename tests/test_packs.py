"""Packs: patches (JSON Patch, RFC 6902), load order, conflicts, the default map, the
discovery path, and data-only packs that never run code (docs/packs.md)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from rootlaw.runtime.cli import main
from rootlaw.spec import SpecError, resolve
from rootlaw.spec.bundle import BASE_PACK, collect
from rootlaw.spec.patch import PatchError, apply, apply_all, clash, json_equal
from rootlaw.spec.validate import validate

ROOT = Path(__file__).resolve().parent.parent
FOUR = ROOT / "examples" / "four-actions"
HOMEBREW = ROOT / "examples" / "homebrew-map"


def write_pack(root: Path, pid: str, files: dict[str, object] | None = None, *,
               requires=("base",), **manifest) -> Path:
    """A pack folder under root: its manifest lists files in the order given."""
    d = root / pid
    d.mkdir(parents=True, exist_ok=True)
    files = files or {}
    for name, data in files.items():
        text = data if isinstance(data, str) else json.dumps(data, indent=2)
        (d / name).write_text(text, encoding="utf-8")
    (d / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": pid, "name": pid, "version": "1", "requires": list(requires),
        "content": list(files), **manifest}, indent=2), encoding="utf-8")
    return d


def patch(target: str, *ops: dict) -> dict:
    return {"kind": "patch", "target": target, "patch": list(ops)}


def patch_text(target: str, *ops: dict) -> str:
    """A patch file as people write them: one operation a line."""
    body = ",\n".join(f"    {json.dumps(op)}" for op in ops)
    return f'{{\n  "kind": "patch",\n  "target": "{target}",\n  "patch": [\n{body}\n  ]\n}}\n'


def count(value: int) -> dict:
    return {"op": "replace", "path": "/turn/daylight/1/count", "value": value}


def errors_of(packs, **kw):
    with pytest.raises(SpecError) as e:
        resolve(packs, **kw)
    return e.value.diagnostics


def line_of(path: Path, needle: str, nth: int = 0) -> int:
    lines = [i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if needle in text]
    return lines[nth]


# ---------------------------------------------------------------------- RFC 6902


RFC_EXAMPLES = [  # Appendix A: (section, document, patch, result)
    ("A.1", {"foo": "bar"}, [{"op": "add", "path": "/baz", "value": "qux"}],
     {"baz": "qux", "foo": "bar"}),
    ("A.2", {"foo": ["bar", "baz"]}, [{"op": "add", "path": "/foo/1", "value": "qux"}],
     {"foo": ["bar", "qux", "baz"]}),
    ("A.3", {"baz": "qux", "foo": "bar"}, [{"op": "remove", "path": "/baz"}], {"foo": "bar"}),
    ("A.4", {"foo": ["bar", "qux", "baz"]}, [{"op": "remove", "path": "/foo/1"}],
     {"foo": ["bar", "baz"]}),
    ("A.5", {"baz": "qux", "foo": "bar"}, [{"op": "replace", "path": "/baz", "value": "boo"}],
     {"baz": "boo", "foo": "bar"}),
    ("A.6", {"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}},
     [{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}],
     {"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}),
    ("A.7", {"foo": ["all", "grass", "cows", "eat"]},
     [{"op": "move", "from": "/foo/1", "path": "/foo/3"}],
     {"foo": ["all", "cows", "eat", "grass"]}),
    ("A.8", {"baz": "qux", "foo": ["a", 2, "c"]},
     [{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}],
     {"baz": "qux", "foo": ["a", 2, "c"]}),
    ("A.10", {"foo": "bar"}, [{"op": "add", "path": "/child", "value": {"grandchild": {}}}],
     {"foo": "bar", "child": {"grandchild": {}}}),
    ("A.14", {"/": 9, "~1": 10}, [{"op": "test", "path": "/~01", "value": 10}],
     {"/": 9, "~1": 10}),
    ("A.16", {"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}],
     {"foo": ["bar", ["abc", "def"]]}),
]


@pytest.mark.parametrize("section, doc, ops, result", RFC_EXAMPLES,
                         ids=[e[0] for e in RFC_EXAMPLES])
def test_rfc_6902_examples_apply(section, doc, ops, result):
    before = json.dumps(doc)
    assert apply_all(doc, ops) == result
    assert json.dumps(doc) == before  # the whole patch works on a copy


@pytest.mark.parametrize("section, doc, op, code", [
    ("A.9", {"baz": "qux"}, {"op": "test", "path": "/baz", "value": "bar"}, "PATCH-TEST"),
    ("A.12", {"foo": "bar"}, {"op": "add", "path": "/baz/bat", "value": "qux"}, "PATCH-FAILED"),
    ("A.15", {"/": 9, "~1": 10}, {"op": "test", "path": "/~01", "value": "10"}, "PATCH-TEST"),
    ("4.6 true is not 1", {"a": 1}, {"op": "test", "path": "/a", "value": True}, "PATCH-TEST"),
    ("4.1 index past the end", {"a": [1]}, {"op": "add", "path": "/a/2", "value": 0},
     "PATCH-FAILED"),
    ("4.1 leading zero", {"a": [1, 2]}, {"op": "add", "path": "/a/01", "value": 0},
     "PATCH-FAILED"),
    ("4.2 remove a missing key", {"a": 1}, {"op": "remove", "path": "/b"}, "PATCH-FAILED"),
    ("4.3 replace a missing key", {"a": 1}, {"op": "replace", "path": "/b", "value": 2},
     "PATCH-FAILED"),
    ("4.4 move into itself", {"a": {"b": 1}}, {"op": "move", "from": "/a", "path": "/a/b"},
     "PATCH-FAILED"),
    ("4.3 '-' is not an item", {"a": [1]}, {"op": "replace", "path": "/a/-", "value": 2},
     "PATCH-FAILED"),
])
def test_rfc_6902_errors(section, doc, op, code):
    with pytest.raises(PatchError) as e:
        apply_all(doc, [op])
    assert e.value.code == code, section


def test_rfc_6902_a13_an_operation_naming_op_twice_is_refused(tmp_path):
    """A.13: a JSON Patch document with a member twice is invalid; the safe reader
    reports the key named twice (JSON parsers would keep the last silently)."""
    text = ('{"kind": "patch", "target": "faction:marquise", "patch": [\n'
            '  {"op": "add", "path": "/baz", "value": "qux", "op": "remove"}]}\n')
    f = tmp_path / "a13.json"
    f.write_text(text, encoding="utf-8")
    found = validate([f]).diagnostics
    assert ("KEY-DUP", "/patch/0/op", 2) in [(d.code, d.pointer, d.line) for d in found]


def test_rfc_6902_a11_members_the_rfc_ignores_are_refused_as_typos(tmp_path):
    """A.11 says unknown members are ignored; rootlaw refuses them, as everywhere in
    its content, since they are typos in practice ('vaule' would silently do nothing)."""
    f = tmp_path / "a11.json"
    f.write_text(json.dumps(patch("faction:marquise",
                                  {"op": "replace", "path": "/name", "vaule": "x"})))
    codes = sorted(d.code for d in validate([f]).diagnostics)
    assert codes == ["KEY-MISSING", "KEY-UNKNOWN"]


def test_json_equal_follows_rfc_6902_4_6():
    assert json_equal(1, 1.0) and json_equal({"a": [1, "x"]}, {"a": [1.0, "x"]})
    assert not json_equal(1, True) and not json_equal(0, False) and not json_equal(None, 0)
    assert not json_equal([1, 2], [2, 1]) and json_equal({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not json_equal("10", 10)


def test_operations_report_what_they_touched():
    doc = {"m": [{"c": 3}, {"c": 4}]}
    doc, [t] = apply(doc, {"op": "add", "path": "/m/-", "value": {"c": 5}})
    assert (t.kind, t.path, t.append) == ("insert", ("m", "2"), True)
    doc, [t] = apply(doc, {"op": "add", "path": "/m/0", "value": {"c": 2}})
    assert (t.kind, t.path, t.append) == ("insert", ("m", "0"), False)
    # An insert at 0 shifts what another pack addresses at /m/1 ...
    assert clash(t, apply({"m": [1, 2]}, {"op": "replace", "path": "/m/1", "value": 0})[1][0])
    # ... an append shifts nothing, and equal writes to one place agree.
    app = apply({"m": []}, {"op": "add", "path": "/m/-", "value": 1})[1][0]
    other = apply({"m": [1, 2]}, {"op": "replace", "path": "/m/1", "value": 0})[1][0]
    assert not clash(app, other) and not clash(other, other)


# ---------------------------------------------------------------------- the example


def test_four_actions_is_a_few_lines_and_changes_only_the_count():
    lines = (FOUR / "four-actions.json").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 12
    base, four = resolve(), resolve([FOUR])
    assert four.packs == ("base", "four-actions")
    got = four.faction("marquise").model_dump(mode="json")
    want = base.faction("marquise").model_dump(mode="json")
    assert want["turn"]["daylight"][1]["count"] == 3
    assert got["turn"]["daylight"][1]["count"] == 4
    want["turn"]["daylight"][1]["count"] = 4
    assert got == want  # nothing else changed
    assert four.faction("eyrie") == base.faction("eyrie") and four.map == base.map
    assert four.hash != base.hash and resolve([FOUR]).hash == four.hash
    assert set(four.patched) == {"faction:marquise"}


def test_a_patch_gives_the_bundle_a_copy_and_edit_gives(tmp_path):
    """The bundle hash (and so the build cache key) is the content's, however it was
    written: a patch and a copied, edited file make one bundle."""
    data = json.loads((BASE_PACK / "marquise.json").read_text(encoding="utf-8"))
    data.pop("$schema")
    data["turn"]["daylight"][1]["count"] = 4
    copied = write_pack(tmp_path, "copied", {"marquise.json": data})
    from rootlaw.generator.build import core_key

    assert resolve([copied]).hash == resolve([FOUR]).hash
    assert core_key(resolve([copied])) == core_key(resolve([FOUR]))


def test_four_actions_scenario_passes_with_the_pack_and_fails_without(capsys, tmp_path):
    """The scenario needs the pack: it passes with --pack, and inside the pack's folder
    (its own scenarios/ run on it unasked), and fails on the base game alone (a copy
    outside any pack, no --pack)."""
    scen = str(FOUR / "scenarios")
    assert main(["scenario", "--pack", str(FOUR), scen]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    assert main(["scenario", scen]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    outside = tmp_path / "scenarios"
    shutil.copytree(FOUR / "scenarios", outside)
    assert main(["scenario", str(outside)]) == 1
    assert "0 passed, 1 failed" in capsys.readouterr().out


def test_four_actions_validates_clean_and_checks(capsys):
    assert main(["validate", "--strict", str(FOUR)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: ") and "pack four-actions: 1 files" in out
    assert main(["check", "--pack", str(FOUR), "--games", "3", "--agreement", "0"]) == 0
    assert "scenarios: 1 run" in capsys.readouterr().out


# ---------------------------------------------------------------------- patch errors


def test_a_failing_test_is_located_at_its_operation(tmp_path):
    d = write_pack(tmp_path, "five", {"p.json": patch_text(
        "faction:marquise",
        {"op": "test", "path": "/turn/daylight/1/count", "value": 5}, count(6))})
    [e] = errors_of([d])
    f = d / "p.json"
    assert (e.code, e.file, e.pointer) == ("PATCH-TEST", str(f), "/patch/0")
    assert e.line == line_of(f, '"op": "test"')
    assert "/turn/daylight/1/count is 3, not 5" in e.message
    assert "pack 'base'" in e.message  # the other side: whose document it is


def test_a_missing_path_is_patch_failed(tmp_path):
    d = write_pack(tmp_path, "dusk", {"p.json": patch(
        "faction:marquise", {"op": "replace", "path": "/turn/dusk", "value": []})})
    [e] = errors_of([d])
    assert (e.code, e.pointer) == ("PATCH-FAILED", "/patch/0") and "/turn/dusk" in e.message


def test_the_patched_document_is_validated_and_errors_point_into_the_patch(tmp_path):
    d = write_pack(tmp_path, "bad", {"p.json": patch_text(
        "faction:marquise",
        {"op": "test", "path": "/turn/daylight/1/count", "value": 3},
        {"op": "replace", "path": "/turn/daylight/1/count", "value": "4"},
        {"op": "add", "path": "/turn/daylight/1/cuont", "value": 1})})
    errs = errors_of([d])
    f = d / "p.json"
    got = sorted((e.code, e.file, e.pointer) for e in errs)
    assert got == [("KEY-UNKNOWN", str(f), "/patch/2"), ("VALUE-INVALID", str(f), "/patch/1")]
    value = next(e for e in errs if e.code == "VALUE-INVALID")
    assert "faction:marquise as patched, at /turn/daylight/1/count" in value.message
    assert value.line == line_of(f, '"value": "4"')


def test_a_step_s_misspelt_parameter_written_by_a_patch_is_an_error_in_the_patch(tmp_path):
    """A step naming a program ('draw') is as closed as the step models were: a key that
    is no parameter of its program is KEY-UNKNOWN (a semantic check, once the document
    loads), located at the patch operation that wrote it, with 'did you mean'."""
    d = write_pack(tmp_path, "typo", {"p.json": patch_text(
        "faction:marquise", {"op": "add", "path": "/turn/evening/0/cuont", "value": 1})})
    [e] = errors_of([d])
    assert (e.code, e.file, e.pointer) == ("KEY-UNKNOWN", str(d / "p.json"), "/patch/0")
    assert "did you mean 'count'?" in e.message


def test_a_semantic_finding_caused_by_a_patch_is_in_the_patch(tmp_path, capsys):
    """A track one space short after the patch: TRACK-LENGTH at the operation."""
    d = write_pack(tmp_path, "short", {"p.json": patch(
        "faction:marquise", {"op": "remove", "path": "/pieces/sawmill/track/cost/5"})})
    [e] = errors_of([d])
    assert (e.code, e.file, e.pointer) == ("TRACK-LENGTH", str(d / "p.json"), "/patch/0")
    assert "as patched, at /pieces/sawmill/track/cost" in e.message
    assert main(["validate", str(d)]) == 1
    assert f"{d / 'p.json'}:" in capsys.readouterr().out


def test_a_patch_cannot_change_a_documents_id(tmp_path):
    d = write_pack(tmp_path, "rename", {"p.json": patch(
        "faction:marquise", {"op": "replace", "path": "/id", "value": "cats"})})
    [e] = errors_of([d])
    assert (e.code, e.pointer) == ("PATCH-FAILED", "/patch/0") and "kind or id" in e.message


def test_a_patch_of_a_document_no_required_pack_defines(tmp_path):
    d = write_pack(tmp_path, "lost", {"p.json": patch("faction:otters", count(4))})
    [e] = errors_of([d])
    assert (e.code, e.pointer) == ("PATCH-TARGET", "/target")
    assert "'faction otters'" in e.message and "base, lost" in e.message


def test_a_patch_of_a_pack_not_required_names_it(tmp_path):
    """The map comes from homebrew-map; a pack that patches it without requiring it."""
    d = write_pack(tmp_path, "wet", {"p.json": patch(
        "map:thicket", {"op": "add", "path": "/rivers/-", "value": [1, 2]})})
    [e] = errors_of([HOMEBREW, d])
    assert e.code == "PATCH-TARGET"
    assert "pack 'homebrew-map'" in e.message and "'wet' does not require" in e.message
    ok = write_pack(tmp_path, "wet2", {"p.json": patch(
        "map:thicket", {"op": "add", "path": "/rivers/-", "value": [2, 3]})},
        requires=["homebrew-map"])
    b = resolve([HOMEBREW, ok], map_id="thicket")
    assert [2, 3] in [list(r) for r in b.map.rivers]


# ---------------------------------------------------------------------- two packs


def test_two_packs_patching_one_value_differently_conflict_naming_both(tmp_path):
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", count(4))})
    b = write_pack(tmp_path, "beta", {"p.json": patch("faction:marquise", count(5))})
    [e] = errors_of([a, b])
    assert e.code == "PACK-CONFLICT"
    assert "packs 'alpha' and 'beta' both change faction:marquise and neither requires " \
           "the other: 'beta' sets /turn/daylight/1/count, 'alpha' sets " \
           "/turn/daylight/1/count" in e.message
    assert e.file == str(b / "p.json") and str(a / "p.json") in e.message
    # Named the other way round: the same error (load order does not follow the command).
    [e2] = errors_of([b, a])
    assert e2 == e


def test_two_packs_setting_one_value_alike_agree(tmp_path):
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", count(4))})
    b = write_pack(tmp_path, "beta", {"p.json": patch("faction:marquise", count(4))})
    assert resolve([a, b]).hash == resolve([FOUR]).hash


def test_a_pack_that_requires_another_patches_after_it(tmp_path):
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", count(4))})
    b = write_pack(tmp_path, "beta", {"p.json": patch(
        "faction:marquise", {"op": "test", "path": "/turn/daylight/1/count", "value": 4},
        count(5))}, requires=["alpha"])
    bundle = resolve([b, a])
    assert bundle.packs == ("base", "alpha", "beta")
    assert bundle.faction("marquise").turn.daylight[1].count == 5


def test_a_test_broken_by_another_pack_names_it(tmp_path):
    """zeta was written for the base game's 3; alpha (loaded first) made it 4."""
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", count(4))},
                   requires=["base"])
    z = write_pack(tmp_path, "zeta", {"p.json": patch(
        "faction:marquise", {"op": "test", "path": "/turn/daylight/1/count", "value": 3},
        {"op": "replace", "path": "/turn/daylight/1/menu/1/moves", "value": 3})},
        requires=["alpha"])
    [e] = errors_of([z, a])
    assert e.code == "PATCH-TEST" and e.file == str(z / "p.json")
    assert "is 4, not 3" in e.message
    assert f"pack 'alpha' changed it ({a / 'p.json'} at /patch/0)" in e.message


def test_an_insert_that_shifts_what_another_pack_addresses_conflicts(tmp_path):
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", {
        "op": "add", "path": "/turn/daylight/0", "value": {"op": "craft"}})})
    b = write_pack(tmp_path, "beta", {"p.json": patch("faction:marquise", count(4))})
    [e] = errors_of([a, b])
    assert e.code == "PACK-CONFLICT" and "'alpha' inserts an item at /turn/daylight/0, " \
        "moving the items after it" in e.message


def test_appends_from_two_packs_compose(tmp_path):
    """Each pack adds a card at the end of the deck: nothing shifts, both land, in load
    order.  (Cards rather than menu entries: a menu offers each action once, MENU-DUP.)"""
    cards = "/cards/-"
    a = write_pack(tmp_path, "alpha", {"p.json": patch("deck:standard", {
        "op": "add", "path": cards,
        "value": {"id": "fox-lantern", "name": "Lantern", "suit": "fox", "kind": "dominance"}})})
    b = write_pack(tmp_path, "beta", {"p.json": patch("deck:standard", {
        "op": "add", "path": cards,
        "value": {"id": "fox-kite", "name": "Kite", "suit": "fox", "kind": "dominance"}})})
    base = [c.id for c in resolve().deck.cards]
    assert [c.id for c in resolve([b, a]).deck.cards] == [*base, "fox-lantern", "fox-kite"]


def test_two_packs_defining_one_document_conflict(tmp_path):
    data = json.loads((HOMEBREW / "thicket.json").read_text(encoding="utf-8"))
    a = write_pack(tmp_path, "alpha", {"m.json": data})
    b = write_pack(tmp_path, "beta", {"m.json": data})
    [e] = errors_of([a, b])
    assert e.code == "PACK-CONFLICT" and "'alpha' and 'beta' both define map:thicket" in e.message


def test_replacing_a_document_another_pack_patches_conflicts(tmp_path):
    data = json.loads((BASE_PACK / "marquise.json").read_text(encoding="utf-8"))
    a = write_pack(tmp_path, "alpha", {"p.json": patch("faction:marquise", count(4))})
    z = write_pack(tmp_path, "zeta", {"marquise.json": data})
    [e] = errors_of([a, z])
    assert e.code == "PACK-CONFLICT"
    assert "'zeta' replaces faction:marquise, which pack 'alpha' patches" in e.message


# ---------------------------------------------------------------------- load order


def test_load_order_is_requirements_first_then_ids(tmp_path):
    c = write_pack(tmp_path, "c-pack")
    a = write_pack(tmp_path, "a-pack", requires=["c-pack"])
    b = write_pack(tmp_path, "b-pack")
    for named in ([a, b, c], [c, b, a], [b, c, a]):
        assert [lp.id for lp in collect(named)] == ["base", "b-pack", "c-pack", "a-pack"]
    chain = collect([a, b, c])
    assert chain[-1].requires == frozenset({"base", "c-pack"})


def test_a_missing_requirement_names_both_packs_and_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("ROOTLAW_PACK_PATH", str(tmp_path / "shelf"))
    a = write_pack(tmp_path, "needy", requires=["base", "absent"])
    [e] = errors_of([a])
    assert (e.code, e.file, e.pointer) == ("PACK-MISSING", str(a / "pack.json"), "/requires/1")
    assert "pack 'needy' requires pack 'absent'" in e.message
    assert f"ROOTLAW_PACK_PATH: {tmp_path / 'shelf'}" in e.message


def test_a_requirement_is_found_on_the_discovery_path(tmp_path, monkeypatch):
    shelf = tmp_path / "shelf"
    write_pack(shelf, "alpha", {"p.json": patch("faction:marquise", count(4))})
    z = write_pack(tmp_path, "zeta", requires=["alpha"])
    with pytest.raises(SpecError):
        resolve([z])
    monkeypatch.setenv("ROOTLAW_PACK_PATH", f"{tmp_path / 'nowhere'}:{shelf}")
    b = resolve([z])
    assert b.packs == ("base", "alpha", "zeta") and b.hash == resolve([FOUR]).hash
    # A pack on the path can be named by its id.
    assert resolve(["alpha"]).hash == b.hash


def test_two_different_packs_with_one_id_are_refused(tmp_path):
    a = write_pack(tmp_path / "one", "twin")
    b = write_pack(tmp_path / "two", "twin")
    [e] = errors_of([a, b])
    assert e.code == "ID-DUP" and "two packs are named 'twin'" in e.message


# ---------------------------------------------------------------------- default map


def test_a_map_pack_sets_the_default_map(tmp_path):
    data = json.loads((HOMEBREW / "thicket.json").read_text(encoding="utf-8"))
    m = write_pack(tmp_path, "thicket-default", {"m.json": data}, default_map="thicket")
    assert resolve([m]).map.id == "thicket"
    assert resolve([m], map_id="autumn").map.id == "autumn"  # --map still chooses


def test_two_packs_setting_different_default_maps_conflict_unless_one_requires_the_other(
        tmp_path):
    a = write_pack(tmp_path, "alpha", default_map="autumn", requires=["base", "homebrew-map"])
    b = write_pack(tmp_path, "beta", default_map="thicket", requires=["base", "homebrew-map"])
    [e] = errors_of([HOMEBREW, a, b])
    assert (e.code, e.file, e.pointer) == ("PACK-CONFLICT", str(b / "pack.json"),
                                           "/default_map")
    assert "packs 'alpha' and 'beta' set different default maps" in e.message
    c = write_pack(tmp_path, "gamma", default_map="thicket", requires=["alpha"])
    assert resolve([HOMEBREW, a, c]).map.id == "thicket"  # gamma builds on alpha: it wins


def test_a_default_map_that_does_not_exist(tmp_path):
    d = write_pack(tmp_path, "nomap", default_map="atlantis")
    [e] = errors_of([d])
    assert (e.code, e.pointer) == ("REF-UNDEF", "/default_map") and "atlantis" in e.message


# ---------------------------------------------------------------------- data only


EVIL = ("import pathlib\n"
        "pathlib.Path(__file__).with_name('RAN').write_text('code ran')\n"
        "raise SystemExit('a pack module was imported')\n")


def test_a_data_pack_never_imports_its_python(tmp_path, capsys):
    """A .py file in a pack folder, listed as content, or named as a module: never
    imported, never run (it would write RAN next to itself)."""
    stray = write_pack(tmp_path, "stray", {"p.json": patch("faction:marquise", count(4))})
    (stray / "hooks.py").write_text(EVIL, encoding="utf-8")
    (stray / "__init__.py").write_text(EVIL, encoding="utf-8")
    b = resolve([stray])
    assert b.hash == resolve([FOUR]).hash
    assert main(["validate", str(stray)]) == 0
    assert main(["play", "--pack", str(stray), "--seed", "1", "--quiet",
                 "--max-decisions", "200"]) == 0

    listed = write_pack(tmp_path, "listed", {"hooks.py": EVIL})
    [e] = errors_of([listed])
    assert e.code == "JSON-SYNTAX" and e.file == str(listed / "hooks.py")

    named = write_pack(tmp_path, "named", module="hooks", hooks=["hooks.py"])
    (named / "hooks.py").write_text(EVIL, encoding="utf-8")
    assert {e.code for e in errors_of([named])} == {"KEY-UNKNOWN"}
    capsys.readouterr()
    for d in (stray, listed, named):
        assert not (d / "RAN").exists()
    assert not [m for m in sys.modules if m in ("hooks", "stray", "listed", "named")]


def test_allow_code_is_refused(tmp_path, monkeypatch, capsys):
    d = write_pack(tmp_path, "coder", allow_code=True)
    (d / "hooks.py").write_text(EVIL, encoding="utf-8")
    [e] = errors_of([d])
    assert (e.code, e.pointer) == ("PACK-CODE", "/allow_code")
    assert "not supported yet" in e.message
    assert main(["validate", str(d)]) == 1
    assert "PACK-CODE" in capsys.readouterr().out
    # The switch a user would turn code on with is reserved: it refuses too.
    monkeypatch.setenv("ROOTLAW_ALLOW_CODE", "1")
    assert main(["play", "--seed", "1", "--quiet", "--max-decisions", "10"]) == 1
    err = capsys.readouterr().err
    assert "PACK-CODE" in err and "not supported yet" in err
    assert not (d / "RAN").exists()
