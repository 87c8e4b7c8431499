"""The content layer: schema, loader diagnostics, pack resolution, bundle hash, `validate`.

Bad inputs live in tests/data/content (single files) and tests/data/packs (packs); every
diagnostic is checked for its code, file, line and JSON pointer.  Expected lines are
found by searching the test file's own text, so the oracle is independent of the
loader's line scanner.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from rootlaw.runtime.cli import main
from rootlaw.spec import BASE_PACK, SpecError, load_file, load_pack, parse_document, resolve
from rootlaw.spec import models as M
from rootlaw.spec.json_schema import schema, schema_text
from rootlaw.spec.models import DeckSpec, FactionSpec, MapSpec, PackSpec

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
CONTENT = DATA / "content"
PACKS = DATA / "packs"
COMMITTED_SCHEMA = ROOT / "spec" / "schema" / "rootlaw.schema.json"
EXAMPLE = ROOT / "examples" / "homebrew-map"


def line_of(path: Path, needle: str) -> int:
    """1-based line of the only occurrence of needle in a file."""
    text = path.read_text(encoding="utf-8")
    assert text.count(needle) == 1, f"{needle!r} must occur once in {path}"
    return text[: text.index(needle)].count("\n") + 1


def diagnostics(path: Path) -> list:
    with pytest.raises(SpecError) as e:
        load_file(path)
    assert e.value.diagnostics, "a SpecError carries at least one diagnostic"
    return e.value.diagnostics


def one(diags: list, code: str, pointer: str | None = None):
    found = [d for d in diags if d.code == code and (pointer is None or d.pointer == pointer)]
    assert len(found) == 1, f"expected one {code} at {pointer!r}, got:\n" + \
        "\n".join(map(str, diags))
    return found[0]


def content_files() -> list[Path]:
    # The repository's own content files (the installed copy may live elsewhere).
    # The example pack: its manifest and the content files it lists (its scenarios are
    # not content documents; they have their own format, see docs/scenarios.md).
    files = sorted((ROOT / "spec" / "content").rglob("*.json"))
    manifest = EXAMPLE / "pack.json"
    files += [manifest] + [EXAMPLE / f for f in json.loads(manifest.read_text())["content"]]
    return files


# ---------------------------------------------------------------------- the base content


def test_base_content_validates():
    pack, docs = load_pack(BASE_PACK)
    assert isinstance(pack, PackSpec) and pack.id == "base"
    kinds = sorted(type(d).__name__ for _, d in docs)
    assert "MapSpec" in kinds and "DeckSpec" in kinds and kinds.count("FactionSpec") >= 2
    b = resolve()
    assert b.packs == ("base",)
    assert isinstance(b.map, MapSpec) and isinstance(b.deck, DeckSpec)
    assert {"marquise", "eyrie"} <= {f.id for f in b.factions}
    assert all(isinstance(f, FactionSpec) for f in b.factions)
    # Every file the manifest lists was loaded, and nothing else.
    listed = {(BASE_PACK / rel).resolve() for rel in pack.content}
    assert {Path(f).resolve() for f, _ in docs} == listed


def test_base_manifest_lists_every_content_file():
    pack, _ = load_pack(BASE_PACK)
    on_disk = {p.resolve() for p in BASE_PACK.rglob("*.json") if p.name != "pack.json"}
    listed = {(BASE_PACK / rel).resolve() for rel in pack.content}
    assert on_disk == listed, "content files the base manifest does not list (or lists twice)"


@pytest.mark.parametrize("path", content_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_content_file_names_the_committed_schema(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "$schema" in data, f"{path} does not name its JSON Schema in '$schema'"
    target = (path.parent / data["$schema"]).resolve()
    assert target == COMMITTED_SCHEMA.resolve(), \
        f"{path}: '$schema' points at {target}, not the committed schema"


@pytest.mark.parametrize("path", content_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_content_file_passes_the_json_schema_as_an_editor_sees_it(path):
    # Editors validate the file as written, "$schema" key included.
    jsonschema = pytest.importorskip("jsonschema")
    full = json.loads(COMMITTED_SCHEMA.read_text(encoding="utf-8"))
    data = json.loads(path.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(full).iter_errors(data))
    # For a readable message, the errors of the branch this document's kind selects.
    branch = {"$defs": full["$defs"], "$ref": f"#/$defs/{data['kind'].capitalize()}Spec"}
    why = [e.message for e in jsonschema.Draft202012Validator(branch).iter_errors(data)]
    assert not errors, f"{path} fails the committed JSON Schema: {why[:3]}"


def test_json_schema_rejects_what_the_loader_rejects():
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(schema())
    for name in ("typo-key.json", "missing-key.json", "wrong-type.json"):
        data = json.loads((CONTENT / name).read_text(encoding="utf-8"))
        data.pop("$schema")
        assert list(validator.iter_errors(data)), f"the JSON Schema accepts {name}"


def test_the_json_schema_takes_a_step_naming_any_program_and_each_step_once():
    """A step is one of the engine's steps or the generic form naming a program
    (models.ProgramStep), never both: the schema's oneOf stays exact, the generic form's
    op is 'not' one of the engine's (an editor completes both)."""
    jsonschema = pytest.importorskip("jsonschema")
    full = schema()
    step = {"$defs": full["$defs"],
            **full["$defs"]["Turn"]["properties"]["evening"]["items"]}
    v = jsonschema.Draft202012Validator(step)
    for ok in ({"op": "tithe"}, {"op": "draw", "count": 1, "bonus_buildings": ["a", "b"]},
               {"op": "craft"}, {"op": "discard_down_to", "limit": 5}):
        assert not list(v.iter_errors(ok)), ok
    for bad in ({"op": "craft", "count": 1},  # an engine step takes only its own keys
                {"op": "Draw"}, {"count": 1}, {"op": "draw", "count": {"box": "x"}}):
        assert list(v.iter_errors(bad)), bad
    enum = full["$defs"]["ProgramStep"]["properties"]["op"]["not"]["enum"]
    assert sorted(enum) == sorted([*M.ENGINE_STEP_OPS, *M.STEP_FIRST_SPELLINGS])


# ---------------------------------------------------------------------- the JSON Schema


def test_committed_json_schema_is_current():
    assert COMMITTED_SCHEMA.read_text(encoding="utf-8") == schema_text(), \
        "spec/schema/rootlaw.schema.json is stale: regenerate it with " \
        "`rootlaw schema --out spec/schema/rootlaw.schema.json`"


def test_schema_check_reports_a_stale_file_and_how_to_fix_it(tmp_path, monkeypatch, capsys):
    import rootlaw.spec.json_schema as sch

    stale = tmp_path / "rootlaw.schema.json"
    stale.write_text(schema_text().replace('"title"', '"titel"', 1), encoding="utf-8")
    monkeypatch.setattr(sch, "SCHEMA_PATH", stale)
    assert main(["schema", "--check"]) == 1
    out = capsys.readouterr().out
    assert "SCHEMA-STALE" in out and str(stale) in out
    assert "rootlaw schema --out spec/schema/rootlaw.schema.json" in out

    stale.write_text(schema_text(), encoding="utf-8")
    assert main(["schema", "--check"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_schema_check_covers_the_scenario_schema_and_write_regenerates_both(
        tmp_path, monkeypatch, capsys):
    import rootlaw.spec.json_schema as sch
    from rootlaw.runtime import scenario as sc

    content, scenario = tmp_path / "rootlaw.schema.json", tmp_path / "scenario.schema.json"
    content.write_text(schema_text(), encoding="utf-8")
    scenario.write_text(sc.schema_text().replace('"title"', '"titel"', 1), encoding="utf-8")
    monkeypatch.setattr(sch, "SCHEMA_PATH", content)
    monkeypatch.setattr(sch, "SCENARIO_SCHEMA_PATH", scenario)
    assert main(["schema", "--check"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"ok: {content} is up to date"
    assert out[1].startswith(f"{scenario}: SCHEMA-STALE: ") and "rootlaw schema --write" in out[1]
    scenario.unlink()  # missing is stale too
    assert main(["schema", "--check"]) == 1
    capsys.readouterr()
    assert main(["schema", "--write"]) == 0
    assert scenario.read_text(encoding="utf-8") == sc.schema_text()
    assert content.read_text(encoding="utf-8") == schema_text()
    assert main(["schema", "--check"]) == 0
    capsys.readouterr()
    assert main(["schema", "--scenario"]) == 0
    assert capsys.readouterr().out == sc.schema_text()


def test_schema_out_writes_the_schema(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["schema", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == schema_text()
    assert main(["schema"]) == 0
    assert capsys.readouterr().out.endswith(schema_text())


# ---------------------------------------------------------------------- located diagnostics


def test_the_control_file_is_valid():
    # The bad files below are this file with one defect each.
    doc = load_file(CONTENT / "good-faction.json")
    assert isinstance(doc, FactionSpec) and doc.id == "test-otters"


def test_malformed_json_is_json_syntax_with_its_line():
    path = CONTENT / "syntax.json"
    d = one(diagnostics(path), "JSON-SYNTAX")
    assert d.file == str(path)
    assert d.line == line_of(path, '"clearings"')  # the parser stops at the next key
    assert str(d).startswith(f"{path}:{d.line}: JSON-SYNTAX")


def test_unknown_key_typo_is_key_unknown_with_pointer_and_line():
    path = CONTENT / "typo-key.json"
    diags = diagnostics(path)
    d = one(diags, "KEY-UNKNOWN", "/pieces/otter-warrior/cout")
    assert d.file == str(path)
    assert d.line == line_of(path, '"cout"')
    assert str(d) == f"{path}:{d.line}: KEY-UNKNOWN at /pieces/otter-warrior/cout: {d.message}"
    # The typo also leaves the real key missing; that is reported at the piece.
    m = one(diags, "KEY-MISSING", "/pieces/otter-warrior/count")
    assert m.line == line_of(path, '"otter-warrior": {')


def test_typo_in_the_base_marquise_points_at_the_right_line(tmp_path):
    # The same check on real content: the piece line of the base Marquise.
    text = (BASE_PACK / "marquise.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["pieces"]["cat-warrior"]["count"]
    at = text.index('"count"', text.index('"cat-warrior"'))  # the warriors' own count
    bad = tmp_path / "marquise.json"
    bad.write_text(text[:at] + '"cout"' + text[at + len('"count"'):], encoding="utf-8")
    d = one(diagnostics(bad), "KEY-UNKNOWN", "/pieces/cat-warrior/cout")
    assert d.line == line_of(bad, '"cout"')


def test_missing_key_is_key_missing_located_at_its_object():
    path = CONTENT / "missing-key.json"
    d = one(diagnostics(path), "KEY-MISSING", "/pieces/dock/count")
    assert d.file == str(path)
    assert d.line == line_of(path, '"dock": {')


def test_missing_top_level_key(tmp_path):
    data = json.loads((CONTENT / "good-faction.json").read_text(encoding="utf-8"))
    del data["setup_order"]
    f = tmp_path / "f.json"
    f.write_text(json.dumps(data, indent=2), encoding="utf-8")
    d = one(diagnostics(f), "KEY-MISSING", "/setup_order")
    assert d.line == 1  # the enclosing object starts on line 1


def test_wrong_type_is_value_invalid_at_the_value():
    path = CONTENT / "wrong-type.json"
    diags = diagnostics(path)
    d = one(diags, "VALUE-INVALID", "/setup_order")
    assert d.file == str(path)
    assert d.line == line_of(path, '"setup_order"')
    assert len(diags) == 1, "\n".join(map(str, diags))


def test_unknown_kind_tag_is_value_invalid():
    data = json.loads((CONTENT / "good-faction.json").read_text(encoding="utf-8"))
    data["kind"] = "fraction"
    with pytest.raises(SpecError) as e:
        parse_document(json.dumps(data), "x.json")
    assert [d.code for d in e.value.diagnostics] == ["VALUE-INVALID"]
    assert "fraction" in e.value.diagnostics[0].message


def test_a_step_op_that_is_no_name_is_located_at_the_op(tmp_path):
    # (an op written as a name that no program has: PROGRAM-REF, tests/test_words.py)
    text = (CONTENT / "good-faction.json").read_text(encoding="utf-8")
    f = tmp_path / "f.json"
    f.write_text(text.replace('{"op": "draw", "count": 1}', '{"op": "Drawz", "count": 1}'),
                 encoding="utf-8")
    d = one(diagnostics(f), "VALUE-INVALID", "/turn/evening/0/op")
    assert d.line == line_of(f, '"Drawz"')


def test_unknown_reference_is_ref_undef_located_at_the_reference():
    # A faction step naming a piece the faction does not have.
    path = CONTENT / "ref-undef.json"
    d = one(diagnostics(path), "REF-UNDEF")
    assert "timber" in d.message
    assert d.file == str(path)
    assert d.pointer == "/turn/birdsong/0/piece", f"REF-UNDEF is not located: {d}"
    assert d.line == line_of(path, '"timber"'), f"REF-UNDEF is on the wrong line: {d}"


def test_duplicate_card_ids_are_id_dup_at_the_second_copy():
    path = CONTENT / "dup-cards.json"
    diags = diagnostics(path)
    assert any("twin-card" in d.message for d in diags), "\n".join(map(str, diags))
    d = one(diags, "ID-DUP")
    assert "twin-card" in d.message
    assert d.file == str(path)
    assert d.pointer == "/cards/2/id", f"ID-DUP is not located at the duplicate: {d}"
    assert d.line == line_of(path, '"Twin again"')


def test_missing_file_is_file_missing():
    missing = CONTENT / "no-such-file.json"
    d = one(diagnostics(missing), "FILE-MISSING")
    assert d.file == str(missing)


def test_pack_listing_a_missing_file_points_into_its_manifest():
    manifest = PACKS / "missing-file" / "pack.json"
    with pytest.raises(SpecError) as e:
        load_pack(manifest.parent)
    d = one(e.value.diagnostics, "FILE-MISSING")
    assert d.file == str(manifest)
    assert d.pointer == "/content/1"
    assert d.line == line_of(manifest, '"no-such-file.json"')
    assert "no-such-file.json" in d.message
    # resolve() reports the same
    with pytest.raises(SpecError) as e2:
        resolve([manifest.parent])
    assert [x.code for x in e2.value.diagnostics] == ["FILE-MISSING"]


def test_diagnostics_of_all_files_of_a_pack_are_collected(tmp_path):
    pack = tmp_path / "p"
    pack.mkdir()
    for name in ("typo-key.json", "wrong-type.json"):
        shutil.copy(CONTENT / name, pack / name)
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": "two-bad", "name": "x",
        "content": ["typo-key.json", "wrong-type.json"]}), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_pack(pack)
    files = {Path(d.file).name for d in e.value.diagnostics}
    assert files == {"typo-key.json", "wrong-type.json"}


# ---------------------------------------------------------------------- packs


def test_two_packs_requiring_each_other_are_a_pack_cycle():
    a, b = PACKS / "cycle-a", PACKS / "cycle-b"
    with pytest.raises(SpecError) as e:
        resolve([a, b])
    d = one(e.value.diagnostics, "PACK-CYCLE")
    assert "cycle-a" in d.message and "cycle-b" in d.message
    # Located: the manifest whose 'requires' closes the cycle.
    manifest = Path(d.file)
    assert manifest.name == "pack.json" and manifest.parent.name in ("cycle-a", "cycle-b"), \
        f"PACK-CYCLE should name a manifest: {d}"
    assert d.pointer.startswith("/requires/") and d.line >= 1, f"PACK-CYCLE is not located: {d}"


def test_a_pack_requiring_itself_is_a_pack_cycle(capsys):
    with pytest.raises(SpecError) as e:
        resolve([PACKS / "self-cycle"])
    assert [d.code for d in e.value.diagnostics] == ["PACK-CYCLE"]
    assert main(["validate", str(PACKS / "self-cycle")]) == 1
    assert "PACK-CYCLE" in capsys.readouterr().out


def test_a_required_pack_that_is_not_given_is_pack_missing_naming_both():
    with pytest.raises(SpecError) as e:
        resolve([PACKS / "cycle-a"])
    d = one(e.value.diagnostics, "PACK-MISSING")
    assert "pack 'cycle-a' requires pack 'cycle-b'" in d.message
    assert "ROOTLAW_PACK_PATH is not set" in d.message  # where it looked
    assert (d.file, d.pointer) == (str(PACKS / "cycle-a" / "pack.json"), "/requires/1")


def test_two_documents_of_one_kind_with_one_id_in_a_pack_are_id_dup():
    with pytest.raises(SpecError) as e:
        resolve([PACKS / "dup-map"])
    d = one(e.value.diagnostics, "ID-DUP")
    assert "twin-map" in d.message


def _mod_pack(tmp_path: Path, edit=None, pack_id: str = "mod") -> Path:
    """A mod pack holding a copy of the base Marquise, optionally edited."""
    pack = tmp_path / pack_id
    pack.mkdir()
    data = json.loads((BASE_PACK / "marquise.json").read_text(encoding="utf-8"))
    data.pop("$schema")
    if edit:
        edit(data)
    (pack / "marquise.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    (pack / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": pack_id, "name": "mod", "requires": ["base"],
        "content": ["marquise.json"]}, indent=2), encoding="utf-8")
    return pack


def test_a_mod_pack_overrides_a_base_faction(tmp_path):
    def edit(d):
        d["name"] = "Marquise de Cat (mod)"
        d["pieces"]["cat-warrior"]["count"] = 20

    base = resolve()
    pack = _mod_pack(tmp_path, edit)
    b = resolve([pack])
    assert b.packs == ("base", "mod")
    cats = b.faction("marquise")
    assert cats.name == "Marquise de Cat (mod)"
    assert cats.pieces["cat-warrior"].count == 20
    assert [f.id for f in b.factions] == [f.id for f in base.factions]  # replaced, not added
    assert b.faction("eyrie") == base.faction("eyrie")
    assert b.sources["faction:marquise"] == str(pack / "marquise.json")
    assert base.faction("marquise").name != cats.name  # base content is untouched


def test_a_mod_pack_adds_a_map_picked_by_id():
    base = resolve()
    b = resolve([EXAMPLE], map_id="thicket")
    assert b.map.id == "thicket"
    assert b.packs == ("base", "homebrew-map")
    assert b.deck == base.deck and b.factions == base.factions
    assert b.hash != base.hash
    # Without map_id the pack's default_map is used; both maps are available.
    assert resolve([EXAMPLE]).map.id == "thicket"
    assert resolve([EXAMPLE], map_id=base.map.id).hash == base.hash
    with pytest.raises(SpecError) as e:
        resolve([EXAMPLE], map_id="no-such-map")
    d = one(e.value.diagnostics, "REF-UNDEF")
    assert "no-such-map" in d.message and "thicket" in d.message


def test_the_example_map_is_playable_on_the_pure_core():
    from rootlaw.runtime import Game

    b = resolve([EXAMPLE], map_id="thicket")
    g = Game(["marquise", "eyrie"], 1, bundle=b, pure=True)
    assert g.names["clearings"] == [str(c.id) for c in sorted(b.map.clearings, key=lambda c: c.id)]
    g.playout(1)
    assert g.is_over and g.winner is not None and max(g.scores) >= 30


def test_a_mod_faction_clashing_with_deck_card_ids_is_id_dup(tmp_path):
    def edit(d):
        d["cards"] = [{"id": "bird-ambush", "name": "Clash", "suit": "bird"}]

    with pytest.raises(SpecError) as e:
        resolve([_mod_pack(tmp_path, edit)])
    assert "ID-DUP" in [d.code for d in e.value.diagnostics]


# ---------------------------------------------------------------------- the bundle hash


def test_bundle_hash_is_stable():
    a, b = resolve(), resolve()
    assert a is not b and a.hash == b.hash
    assert len(a.hash) == 16 and int(a.hash, 16) >= 0


def test_bundle_hash_is_stable_across_processes():
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c",
                          "from rootlaw.spec import resolve; print(resolve().hash)"],
                         env=env, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == resolve().hash


def test_bundle_hash_covers_content_not_paths_or_pack_names(tmp_path):
    # The same content from another pack hashes the same: the hash keys the build cache.
    same = resolve([_mod_pack(tmp_path, None, "same-content")])
    assert same.packs != resolve().packs
    assert same.hash == resolve().hash


@pytest.mark.parametrize("edit", [
    lambda d: d.update(name=d["name"] + "!"),
    lambda d: d["pieces"]["cat-warrior"].update(count=d["pieces"]["cat-warrior"]["count"] - 1),
    lambda d: d["turn"]["evening"].reverse(),
], ids=["name", "piece-count", "step-order"])
def test_bundle_hash_changes_when_content_changes(tmp_path, edit):
    changed = resolve([_mod_pack(tmp_path, edit)])
    assert changed.hash != resolve().hash


# ---------------------------------------------------------------------- rootlaw validate


def test_validate_the_base_pack(capsys):
    assert main(["validate", "--play", "0", str(BASE_PACK)]) == 0
    lines = capsys.readouterr().out.splitlines()
    n = len(load_pack(BASE_PACK)[1])
    assert lines == [f"ok: {BASE_PACK} (pack base: {n} files; bundle {resolve().hash})"]
    # By default it plays three seeded games too, and says how long they took.
    assert main(["validate", str(BASE_PACK)]) == 0
    [line] = capsys.readouterr().out.splitlines()
    assert re.fullmatch(rf"ok: {re.escape(str(BASE_PACK))} \(pack base: {n} files; bundle "
                        rf"{resolve().hash}; played 3 games on map autumn in [0-9.]+ s "
                        r"\((compiled|pure) core\): 3 ended, \d+ to \d+ rounds\)", line), line


def test_validate_single_files(capsys):
    files = [BASE_PACK / "marquise.json", EXAMPLE / "thicket.json", EXAMPLE / "pack.json"]
    assert main(["validate", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"ok: {files[0]} (faction marquise)"
    assert lines[1] == f"ok: {files[1]} (map thicket)"
    assert lines[2].startswith(f"ok: {files[2]} (pack homebrew-map: 1 files; bundle ")
    assert len(lines) == 3


def test_validate_a_bad_file_prints_located_diagnostics_and_exits_1(capsys):
    bad = CONTENT / "wrong-type.json"
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    line = line_of(bad, '"setup_order"')
    assert out == [f"{bad}:{line}: VALUE-INVALID at /setup_order: "
                   f"{load_file_error_message(bad)}"]


def load_file_error_message(path: Path) -> str:
    with pytest.raises(SpecError) as e:
        load_file(path)
    return e.value.diagnostics[0].message


def test_validate_goes_on_after_a_failure_and_still_fails(capsys):
    # A file that is not JSON is unusable input: exit 2 (docs/validation.md).
    good, bad = CONTENT / "good-faction.json", CONTENT / "syntax.json"
    assert main(["validate", str(bad), str(good)]) == 2
    out = capsys.readouterr().out.splitlines()
    line = line_of(bad, '"clearings"')
    assert out[0].startswith(f"{bad}:{line}: JSON-SYNTAX")
    assert out[-1] == f"ok: {good} (faction test-otters)"


def test_validate_a_pack_with_a_missing_file(capsys):
    manifest = PACKS / "missing-file" / "pack.json"
    assert main(["validate", str(manifest.parent)]) == 2  # a file that cannot be read
    out = capsys.readouterr().out.splitlines()
    line = line_of(manifest, '"no-such-file.json"')
    assert out == [f"{manifest}:{line}: FILE-MISSING at /content/1: "
                   f"content file 'no-such-file.json' not found"]


def test_validate_a_missing_path(capsys, tmp_path):
    assert main(["validate", str(tmp_path / "nope.json")]) == 2
    assert "FILE-MISSING" in capsys.readouterr().out


def test_validate_the_example_pack(capsys):
    assert main(["validate", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {EXAMPLE} (pack homebrew-map: 1 files;")


def test_a_pack_cannot_list_files_outside_its_folder(tmp_path):
    """A data pack is one folder: '../' or absolute content paths are refused, located
    at the manifest entry."""
    pack = tmp_path / "mod"
    pack.mkdir()
    (tmp_path / "outside.json").write_text('{"kind": "map"}')
    manifest = pack / "pack.json"
    manifest.write_text(json.dumps({"kind": "pack", "id": "mod", "name": "m", "version": "1",
                                    "requires": ["base"],
                                    "content": ["../outside.json", "/etc/passwd"]}, indent=2))
    with pytest.raises(SpecError) as e:
        resolve([pack])
    found = [d for d in e.value.diagnostics if d.code == "VALUE-INVALID"]
    assert [d.pointer for d in found] == ["/content/0", "/content/1"]
    assert all("outside the pack" in d.message and d.line > 1 for d in found)


def test_a_content_file_that_is_not_utf8(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{")
    diags = diagnostics(bad)
    assert [d.code for d in diags] == ["FILE-ENCODING"]


@pytest.mark.parametrize("field, value", [("vp", 10**30), ("count", 10**6)])
def test_absurd_numbers_are_refused_before_they_reach_the_tables(tmp_path, field, value):
    """Bounds on every number keep the generated int64 tables sane (no overflow, no
    million-card deck)."""
    deck = {"kind": "deck", "id": "d", "name": "d", "items": {"boot": 1},
            "cards": [{"id": "c", "name": "c", "suit": "fox", "kind": "item",
                       "cost": ["fox"], "item": "boot", field: value}]}
    f = tmp_path / "deck.json"
    f.write_text(json.dumps(deck))
    diags = diagnostics(f)
    assert [(d.code, d.pointer) for d in diags] == [("VALUE-INVALID", f"/cards/0/{field}")]
