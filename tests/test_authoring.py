"""docs/authoring.md stays true: every JSON block parses; the blocks marked as whole
files validate (documents and patches with `rootlaw validate --strict`) or pass (the
scenario); every action type of the engine has a row whose examples are notations the
engine writes; the scenario keys it lists are the engine's; the validation example is
what validate prints; its links lead to files."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import example_bundle

from rootlaw.generator.tables import ACTION_TYPES
from rootlaw.runtime import Game
from rootlaw.runtime import scenario as sc
from rootlaw.runtime.cli import main
from rootlaw.spec import resolve
from rootlaw.spec.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
DOC_PATH = ROOT / "docs" / "authoring.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
EXAMPLES = ROOT / "examples"

# A fenced block, with the `<!-- check: ... -->` line right before it when it has one.
BLOCK = re.compile(r"(?:<!-- check: ([^>]*?) -->\n)?```(\w*)\n(.*?)```", re.S)
BLOCKS = [(m.group(1), m.group(2), m.group(3), DOC[:m.start()].count("\n") + 1)
          for m in BLOCK.finditer(DOC)]
JSON_BLOCKS = [b for b in BLOCKS if b[1] == "json"]
CHECKED = [b for b in JSON_BLOCKS if b[0]]


def test_the_doc_has_checked_examples_of_every_kind():
    kinds = {b[0].split()[0] for b in CHECKED}
    assert kinds == {"schema", "document", "patch", "scenario"}
    assert len(JSON_BLOCKS) >= 10
    assert all(b[1] in ("json", "sh", "yaml", "text") for b in BLOCKS), \
        [b[1] for b in BLOCKS]


@pytest.mark.parametrize("block", JSON_BLOCKS, ids=[f"line{b[3]}" for b in JSON_BLOCKS])
def test_every_json_block_parses(block):
    json.loads(block[2])


def write(tmp_path: Path, name: str, text: str) -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


@pytest.mark.parametrize("block", CHECKED, ids=[f"{b[0]}-line{b[3]}" for b in CHECKED])
def test_every_whole_file_is_valid(block, tmp_path, capsys):
    check, _, text, line = block
    kind, *args = check.split()
    data = json.loads(text)
    if kind == "schema":  # a manifest: its content files are the example pack's
        load_file(write(tmp_path, "pack.json", text))
    elif kind == "document":
        f = write(tmp_path, f"{data['id']}.json", text)
        assert main(["validate", "--strict", str(f)]) == 0, capsys.readouterr().out
    elif kind == "patch":
        target_pack = {"faction:druids": "hedge-druids"}.get(data["target"], "base")
        pack = tmp_path / "doc-patch"
        pack.mkdir()
        write(pack, "patch.json", text)
        write(pack, "pack.json", json.dumps({
            "kind": "pack", "id": "doc-patch", "name": "from the docs", "version": "1",
            "requires": [target_pack], "content": ["patch.json"]}))
        rc = main(["validate", "--strict", "--pack", str(EXAMPLES / target_pack), str(pack)])
        assert rc == 0, capsys.readouterr().out
        # The patch applies: the patched value is in the bundle.
        b = resolve([EXAMPLES / target_pack, pack])
        assert b.patched[data["target"]], data["target"]
    elif kind == "scenario":
        bundle = example_bundle(args[0]) if args else None
        for pure in (False, True):
            assert sc.run_scenario(data, bundle=bundle, pure=pure) == [], (line, pure)
    else:
        pytest.fail(f"line {line}: unknown check {check!r}")


def notation_rows() -> dict[str, list[str]]:
    section = DOC.split("## The action notation\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for row in section.splitlines():
        m = re.match(r"\| `(\w+)` \|[^|]*\| (.*) \|$", row)
        if m:
            rows[m.group(1)] = re.findall(r"`([^`]+)`", m.group(2))
    return rows


def test_every_action_type_has_a_row_with_examples_the_engine_writes():
    rows = notation_rows()
    assert list(rows) == list(ACTION_TYPES)
    g = Game(["marquise", "eyrie", "alliance", "druids"], 1,
             bundle=example_bundle("hedge-druids"))
    can = sc.expressible(g)
    for kind, examples in rows.items():
        assert examples, kind
        for text in examples:
            assert text in can, f"{kind}: {text!r} is no notation of the engine"
        # The example is of its own type: some action of that type writes it.
        off = g.space.offsets[kind]
        ends = sorted(g.space.offsets.values()) + [g.space.size]
        end = ends[ends.index(off) + 1]
        written = {g.space.notation(a, f) for a in range(off, end)
                   for f in range(len(g.names["factions"]))}
        written = {re.sub(r" seat(\d)", lambda m: " " + g.factions[int(m.group(1))], w)
                   for w in written}
        assert set(examples) <= written, (kind, set(examples) - written)


def keys_listed(label: str) -> list[str]:
    section = DOC.split("## Scenarios\n", 1)[1].split("\n## ", 1)[0]
    item = section.split(f"- **{label}**", 1)[1].split("\n- **", 1)[0].split("\n\n", 1)[0]
    return re.findall(r"`([a-z_]+)`", item)


def test_the_scenario_keys_listed_are_the_engines():
    position = [k for k in keys_listed("position") if k in sc.KEY]
    assert position == sc.POSITION_KEYS
    expect = [k for k in keys_listed("expect") if k in sc.KEY]
    with_check = {k for k in sc.POSITION_KEYS if sc.KEY[k].check is not None}
    assert with_check | set(expect) == set(sc.EXPECT_KEYS)


def test_the_validation_example_is_what_validate_prints(tmp_path, capsys, monkeypatch):
    text = next(b[2] for b in BLOCKS if b[1] == "text" and "$ rootlaw validate" in b[2])
    command, printed = text.strip().splitlines()
    shutil.copytree(EXAMPLES / "hedge-druids", tmp_path / "my-pack")
    f = tmp_path / "my-pack" / "druids.json"
    f.write_text(f.read_text().replace('"sowing": [', '"sewing": ['), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(command.split()[2:]) == 1  # "$ rootlaw validate ..."
    assert capsys.readouterr().out.splitlines() == [printed]


def test_the_links_lead_to_files():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", DOC):
        if target.startswith("http"):
            continue
        assert (DOC_PATH.parent / target).exists(), target


def test_the_catalogue_row_quoted_is_the_catalogues():
    catalogue = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    row = next(line for line in catalogue.splitlines()
               if line.startswith("| `place_at_buildings`"))
    assert "Place one piece in the clearing of each of your buildings of a type." in row
    assert "`piece` (str, required)<br>`building` (str, required)" in row
    program = next(line for line in catalogue.splitlines()
                   if line.startswith("| `score_forests`"))
    assert "`vp` (number), `min` (number)" in program and "| 2.4 |" in program


def test_the_readme_links_the_guide():
    assert "docs/authoring.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert os.path.exists(ROOT / "examples" / "hedge-druids" / "README.md")
