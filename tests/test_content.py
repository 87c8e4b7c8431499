"""Saves and logs remember their content (runtime/content.py): the packs (id, version,
hash of their files, folder), the map and the deck; loading finds them again or says
exactly which pack is missing or changed.  Format-1 files keep loading."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from rootlaw.runtime import Game, LogError, SaveError
from rootlaw.runtime.cli import main
from rootlaw.runtime.log import replay_log
from rootlaw.spec import resolve

ROOT = Path(__file__).resolve().parent.parent
HOMEBREW = ROOT / "examples" / "homebrew-map"
_spec = importlib.util.spec_from_file_location("golden_regenerate",
                                               ROOT / "tests" / "golden" / "regenerate.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def mod_pack(where: Path, count: int = 4, pid: str = "fours", indent: int | None = 2) -> Path:
    """A mod written in tmp_path: a patch that gives the Marquise `count` actions."""
    d = where / pid
    d.mkdir(parents=True, exist_ok=True)
    (d / "pack.json").write_text(json.dumps({
        "kind": "pack", "id": pid, "name": "fours", "version": "2", "requires": ["base"],
        "content": ["fours.json"]}, indent=indent), encoding="utf-8")
    (d / "fours.json").write_text(json.dumps({
        "kind": "patch", "target": "faction:marquise", "patch": [
            {"op": "test", "path": "/turn/daylight/1/count", "value": 3},
            {"op": "replace", "path": "/turn/daylight/1/count", "value": count}]},
        indent=indent), encoding="utf-8")
    return d


@pytest.fixture
def modded(tmp_path, capsys):
    """A game played and saved and logged with a mod pack: (pack, save, log)."""
    pack = mod_pack(tmp_path / "packs")
    save, log = tmp_path / "game.json", tmp_path / "game.jsonl"
    rc, _, err = run(capsys, "play", "--pack", pack, "--seed", "3", "--quiet",
                     "--max-decisions", "400", "--save", save, "--log", log)
    assert rc == 0, err
    return pack, save, log


def load_error(path, code, **kw) -> SaveError:
    with pytest.raises(SaveError) as e:
        Game.load(path, **kw)
    assert e.value.code == code, str(e.value)
    assert str(path) in str(e.value)
    return e.value


# ---------------------------------------------------------------------- the record


def test_a_save_and_a_log_record_the_packs_map_and_deck(modded):
    pack, save, log = modded
    data = json.loads(save.read_text(encoding="utf-8"))
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    bundle = resolve([pack])
    [base, mod] = bundle.records
    for rec in (data, header):
        assert rec["format"] == 2 and rec["bundle"] == bundle.hash
        assert rec["map"] == "autumn" and rec["deck"] == "standard"
        assert rec["packs"] == [
            {"id": "base", "version": "1", "hash": base.hash},  # comes with rootlaw: no path
            {"id": "fours", "version": "2", "hash": mod.hash, "path": str(pack.resolve())}]
    assert len(mod.hash) == 16 and mod.hash != base.hash


def test_the_pack_hash_covers_the_files_the_manifest_lists(tmp_path):
    pack = mod_pack(tmp_path)
    h = resolve([pack]).records[1].hash
    (pack / "README.md").write_text("notes", encoding="utf-8")
    assert resolve([pack]).records[1].hash == h  # not listed: does not count
    mod_pack(tmp_path, indent=None)  # the same content, written on one line
    assert resolve([pack]).records[1].hash != h


# ---------------------------------------------------------------------- a mod's save


def test_a_save_with_a_mod_loads_from_the_save_alone(modded, capsys):
    _, save, _ = modded
    g = Game.load(save)
    assert g.bundle.packs == ("base", "fours")
    assert g.bundle.faction("marquise").turn.daylight[1].count == 4
    rc, out, err = run(capsys, "render", save)
    assert rc == 0 and out.startswith("<svg"), err


def test_a_log_with_a_mod_replays_from_the_log_alone(modded, capsys):
    _, _, log = modded
    rc, out, err = run(capsys, "replay", log)
    assert rc == 0 and out.startswith(f"ok: {log} replays"), err


def test_a_moved_pack_is_missing_until_it_is_on_the_discovery_path(modded, tmp_path, capsys,
                                                                  monkeypatch):
    pack, save, log = modded
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    moved = shutil.move(str(pack), str(shelf / "renamed-folder"))
    e = load_error(save, "SAVE-PACK-MISSING")
    msg = str(e)
    assert "pack 'fours' version 2" in msg and "is not found" in msg
    assert f"the recorded folder {pack.resolve()} (no pack 'fours' there)" in msg
    assert "the --pack options (none given)" in msg and "ROOTLAW_PACK_PATH is not set" in msg
    rc, _, err = run(capsys, "replay", log)
    assert rc == 1 and f"{log}:1: LOG-PACK-MISSING: pack 'fours' version 2" in err
    # On the discovery path (a folder holding pack folders): found, whatever its name.
    monkeypatch.setenv("ROOTLAW_PACK_PATH", str(shelf))
    assert Game.load(save).bundle.records[1].path == str(Path(moved).resolve())
    rc, _, err = run(capsys, "replay", log)
    assert rc == 0, err
    # Or named with --pack.
    monkeypatch.delenv("ROOTLAW_PACK_PATH")
    assert Game.load(save, packs=[moved]).bundle.packs == ("base", "fours")
    rc, _, err = run(capsys, "render", save, "--pack", moved, "-o", tmp_path / "g.svg")
    assert rc == 0, err


def test_a_changed_pack_is_pack_changed(modded, capsys):
    pack, save, log = modded
    old = resolve([pack]).records[1].hash
    mod_pack(pack.parent, count=5)  # the Marquise now takes five actions
    new = resolve([pack]).records[1].hash
    e = load_error(save, "SAVE-PACK-CHANGED")
    msg = str(e)
    assert f"pack 'fours' version 2 has changed since: recorded files hash {old}" in msg
    assert f"found version 2 with files hash {new} at {pack}" in msg
    rc, _, err = run(capsys, "replay", log)
    assert rc == 1 and "LOG-PACK-CHANGED: pack 'fours' version 2 has changed" in err


def test_a_pack_changed_in_form_only_still_loads(modded):
    """Reformatted files: another pack hash, the same bundle (what a replay needs)."""
    pack, save, _ = modded
    mod_pack(pack.parent, indent=None)
    g = Game.load(save)
    assert g.bundle.records[1].hash != json.loads(save.read_text())["packs"][1]["hash"]


def test_a_pack_changed_so_that_it_no_longer_loads(modded):
    pack, save, _ = modded
    (pack / "fours.json").write_text("{", encoding="utf-8")
    e = load_error(save, "SAVE-PACK-CHANGED")
    assert "no longer loads" in str(e) and "JSON-SYNTAX" in str(e)


def test_the_recorded_map_is_used_and_another_is_refused(tmp_path, capsys):
    save = tmp_path / "thicket.json"
    rc, _, err = run(capsys, "play", "--pack", HOMEBREW, "--map", "thicket", "--seed", "1",
                     "--quiet", "--max-decisions", "300", "--save", save)
    assert rc == 0, err
    assert Game.load(save).bundle.map.id == "thicket"
    rc, _, err = run(capsys, "render", save, "--map", "autumn")
    assert rc == 1 and "VALUE-INVALID" in err and "played on map 'thicket'" in err
    rc, _, err = run(capsys, "render", save, "--map", "thicket", "-o", tmp_path / "t.svg")
    assert rc == 0, err


def test_unchanged_packs_giving_another_bundle_are_save_bundle(modded):
    _, save, _ = modded
    data = json.loads(save.read_text(encoding="utf-8"))
    data["bundle"] = "0123456789abcdef"
    save.write_text(json.dumps(data), encoding="utf-8")
    e = load_error(save, "SAVE-BUNDLE")
    assert "the recorded packs are unchanged" in str(e)


@pytest.mark.parametrize("edit, where", [
    (lambda d: d.update(packs="base"), "#/packs"),
    (lambda d: d.update(packs=[]), "#/packs"),
    (lambda d: d["packs"].reverse(), "#/packs"),
    (lambda d: d["packs"][1].update(id="Fours!"), "#/packs/1/id"),
    (lambda d: d["packs"][1].update(hash=7), "#/packs/1/hash"),
    (lambda d: d["packs"][1].update(path=["x"]), "#/packs/1/path"),
    (lambda d: d["packs"][1].update(extra=1), "#/packs/1"),
    (lambda d: d.pop("map"), "#/map"),
    (lambda d: d.update(deck=None), "#/deck"),
])
def test_a_broken_record_is_save_corrupt_at_its_pointer(modded, edit, where):
    _, save, _ = modded
    data = json.loads(save.read_text(encoding="utf-8"))
    edit(data)
    save.write_text(json.dumps(data), encoding="utf-8")
    assert f"{save}{where}:" in str(load_error(save, "SAVE-CORRUPT"))


def test_a_broken_log_header_record_is_log_invalid(modded, tmp_path, capsys):
    _, _, log = modded
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["packs"] = [{"id": "base"}]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as e:
        replay_log(bad)
    assert e.value.code == "LOG-INVALID" and "header 'packs/0/version'" in str(e.value)


def test_a_game_on_an_edited_copy_of_the_base_game_loads_from_that_copy(tmp_path, capsys):
    """A base game named with --pack (a checkout's edited spec/content/base) is the base
    game of the game, recorded with its folder and found there again; gone, the save
    falls back to the base game of this rootlaw (here the same bundle: a new colour)."""
    from rootlaw.spec import BASE_PACK

    copy = tmp_path / "base"
    shutil.copytree(BASE_PACK, copy)
    f = copy / "marquise.json"
    f.write_text(f.read_text(encoding="utf-8").replace('"#e07b22"', '"#123456"'),
                 encoding="utf-8")
    save = tmp_path / "game.json"
    rc, _, err = run(capsys, "play", "--pack", copy, "--seed", "3", "--quiet",
                     "--max-decisions", "200", "--save", save)
    assert rc == 0, err
    [rec] = json.loads(save.read_text(encoding="utf-8"))["packs"]
    assert rec["id"] == "base" and rec["path"] == str(copy.resolve())
    assert Game.load(save).bundle.faction("marquise").color == "#123456"
    shutil.rmtree(copy)
    assert Game.load(save).bundle.faction("marquise").color == "#e07b22"


# ---------------------------------------------------------------------- format 1


def test_the_format_1_fixtures_are_what_regenerate_writes(tmp_path):
    """The committed format-1 files were written by rootlaw before this change; the
    regenerate script writes them again byte for byte (so rule changes keep them
    current) from today's games."""
    assert golden.FORMAT_1_SAVE.read_text(encoding="utf-8") == golden.format_1_save()
    log = golden.format_1_log(golden.render(7, tmp_path))
    assert golden.FORMAT_1_LOG.read_text(encoding="utf-8") == log
    header = json.loads(log.splitlines()[0])
    assert list(header) == ["type", "bundle", "factions", "seed"]
    save = json.loads(golden.FORMAT_1_SAVE.read_text(encoding="utf-8"))
    assert list(save) == ["format", "bundle", "packs", "factions", "seed", "actions", "state"]
    assert save["format"] == 1 and save["packs"] == ["base"]


def test_a_format_1_save_of_the_base_game_loads(capsys, tmp_path):
    g = Game.load(golden.FORMAT_1_SAVE)
    assert len(g.history) == 40 and g.bundle.packs == ("base",)
    assert g.to_dict()["format"] == 2  # saved again, it is saved in the new format
    rc, out, err = run(capsys, "render", golden.FORMAT_1_SAVE)
    assert rc == 0 and out.startswith("<svg"), err


def test_a_format_1_log_of_the_base_game_replays(capsys):
    g = replay_log(golden.FORMAT_1_LOG)
    assert g.is_over and g.winner is not None
    rc, out, err = run(capsys, "replay", golden.FORMAT_1_LOG)
    assert rc == 0 and "replays to the same end" in out, err


def test_a_format_1_save_of_a_mod_needs_its_packs_named(modded, capsys):
    """The migration rule: format 1 records no content, so the caller names it."""
    pack, save, _ = modded
    data = json.loads(save.read_text(encoding="utf-8"))
    old = {"format": 1, "bundle": data["bundle"], "packs": ["base", "fours"],
           **{k: data[k] for k in ("factions", "seed", "actions", "state")}}
    save.write_text(json.dumps(old), encoding="utf-8")
    e = load_error(save, "SAVE-BUNDLE")
    assert "format-1 save records no content (it names packs base, fours)" in str(e)
    assert "give the --pack, --map and --deck it was played with" in str(e)
    assert Game.load(save, packs=[pack]).bundle.packs == ("base", "fours")
    rc, _, err = run(capsys, "render", save, "--pack", pack, "-o", save.with_suffix(".svg"))
    assert rc == 0, err
