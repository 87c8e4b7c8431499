"""Repository rules: the engine never names content; generated docs are current."""

from __future__ import annotations

import re
from pathlib import Path

from rootlaw.runtime.game import base_bundle
from rootlaw.spec import resolve
from rootlaw.spec.catalogue import catalogue_markdown

ROOT = Path(__file__).resolve().parent.parent


def content_ids() -> set[str]:
    """Ids of the base game's content and of the example packs' (examples/*/pack.json):
    a homebrew faction's pieces, cycles and stages are content too."""
    ids: set[str] = set()
    bundles = [base_bundle()] + [resolve([p.parent])
                                 for p in sorted((ROOT / "examples").glob("*/pack.json"))]
    for b in bundles:
        ids |= {b.map.id, b.deck.id}
        ids |= {c.id for c in b.deck.cards}
        for f in b.factions:
            ids.add(f.id)
            ids |= set(f.pieces) | {c.id for c in f.cards} | {r.id for r in f.roles}
            ids |= {a.id for a in f.abilities}
            ids |= {z.id for z in f.zones} | {x.id for x in f.boxes}
            for cy in f.cycles:
                ids |= {cy.id, *cy.stages}
    return {i for i in ids if len(i) >= 5} - LAW_WORDS


# The Law's own nouns, which the engine implements and content may also use as ids: the
# suits (Law 2.1, 2.2.2: a cycle of suits, as the Lizard Cult's outcast marker, names
# them) and revealed cards (Law 2.1.4: a pile of revealed cards is a zone's natural id).
LAW_WORDS = {"fox", "rabbit", "mouse", "bird", "birds", "revealed"}


def test_the_example_packs_are_among_the_content_checked():
    ids = content_ids()
    assert {"thicket", "druids", "hedgehog", "grove", "acorn"} <= ids
    assert {"lizard-cult", "lizard", "fox-garden", "acolytes", "lost-souls", "outcast"} <= ids


def test_engine_code_names_no_faction_card_or_map():
    # The architecture's one rule: runtime/ and generator/ implement the general Law and
    # generic primitives only.  Content ids live in spec/content.
    words = re.compile(r"\b(" + "|".join(sorted(map(re.escape, content_ids()))) + r")\b", re.I)
    hits = []
    for folder in ("runtime", "generator"):
        for f in (ROOT / folder).rglob("*"):
            if f.suffix in (".py", ".pyx", ".pxd", ".j2", ".in"):
                for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
                    if words.search(line):
                        hits.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_primitive_catalogue_is_current():
    committed = (ROOT / "docs" / "catalogue.md").read_text(encoding="utf-8")
    assert committed == catalogue_markdown(ROOT / "examples"), \
        "docs/catalogue.md is stale: run `rootlaw catalogue --out docs/catalogue.md`"


def test_the_catalogue_lists_every_value_condition_and_place():
    """Every value, condition, piece form and place the models accept has its row in
    docs/catalogue.md (an outside author found nine values and conditions missing)."""
    import typing

    from rootlaw.spec import models as M

    text = catalogue_markdown(ROOT / "examples")
    rows = {line.split("|")[2].strip() for line in text.splitlines()
            if line.startswith(("| value ", "| condition ", "| piece ", "| place "))}
    keys = [*M._VALUE_FORMS, *M._CONDITION_FORMS, "of_suit", "random", "each_clearing",
            "each", "each_forest", "forest"]
    assert {f"`{k}`" for k in keys} <= rows, sorted({f"`{k}`" for k in keys} - rows)
    for model in [*M._VALUE_MODELS.values(), *M._CONDITION_MODELS.values()]:
        members = typing.get_args(typing.get_args(M.Value)[0]) + \
            typing.get_args(typing.get_args(M.Condition)[0])
        assert any(typing.get_args(m)[0] is model for m in members), model


def test_the_catalogue_counts_the_content_that_uses_each_primitive():
    """Issue 12's measure of a catalogue of mechanisms: how many content files use each
    primitive (a program part: how many programs)."""
    from rootlaw.spec import models as M
    from rootlaw.spec.catalogue import content_files, use_counts, uses

    content = content_files(ROOT / "examples")
    files = [name for name, _ in content]
    assert "base/alliance.json" in files and "hedge-druids/druids.json" in files
    assert "hedge-druids/druids.json" not in [name for name, _ in content_files()]
    used = uses(content)
    # The Marquise and the Eyrie craft in a step, the Alliance from its menu; menu
    # entries naming a program are one primitive, whichever program they name (the
    # Alliance revolts, the Marquise and the druids recruit at every building);
    # the standard library's mobilize and train both choose a card.
    assert set(used[M.Craft]) >= {"base/eyrie.json", "base/marquise.json"}
    assert used[M.CraftAction] == ["base/alliance.json"]
    assert set(used[M.ProgramEntry]) >= {"base/alliance.json", "base/marquise.json",
                                         "hedge-druids/druids.json"}
    # So are steps naming a program (models.ProgramStep): all eight factions draw by one.
    assert set(used[M.ProgramStep]) == {"base/alliance.json", "base/eyrie.json",
                                        "base/marquise.json", "hedge-druids/druids.json",
                                        "lizard-cult/cult.json", "mire-toads/toads.json",
                                        "keepers-in-iron/keepers.json",
                                        "corvid-conspiracy/corvids.json"}
    choose = next(m for m in used if m.__name__ == "ChoosePart")
    assert {"standard:mobilize", "standard:train"} <= set(used[choose])
    counts = use_counts(content)
    # One operation at two places is one primitive, counted once with the files of
    # both (Law 4.1: crafting, a step or a menu entry; a program run by its name).
    assert "Menu actions craft" not in counts and "Menu actions program" not in counts
    assert counts["Steps craft"] == len(set(used[M.Craft]) | set(used[M.CraftAction])) == 8
    assert len(used[M.ProgramEntry]) >= 3
    assert "Menu actions revolt" not in counts  # a program's name, not a primitive
    # (the eight factions' steps, and the Exiles deck's Propaganda Bureau, whose
    # effect's menu entry runs the deck's program 'propaganda')
    assert "exiles-partisans/deck.json" in used[M.ProgramEntry]
    assert counts["Steps program"] == 9 and "Steps score_track" not in counts
    # Counted over the files given: the base pack's map alone uses no menu action.
    assert use_counts(content[:1])["Steps program"] == 0
    assert use_counts(content[:1])["Steps craft"] == 0


def test_the_catalogue_command_counts_a_checkouts_examples(capsys, tmp_path, monkeypatch):
    from rootlaw.runtime.cli import main

    monkeypatch.chdir(ROOT)  # a checkout: its examples/ are counted
    assert main(["catalogue"]) == 0
    printed = capsys.readouterr().out.rstrip("\n")
    assert printed == catalogue_markdown(ROOT / "examples").rstrip("\n")
    monkeypatch.chdir(tmp_path)  # elsewhere (an installed rootlaw): the base pack alone
    assert main(["catalogue"]) == 0
    out = capsys.readouterr().out
    assert "of the base pack (for a program part" in out and "hedge-druids/" not in out
    assert main(["catalogue", "--examples", str(tmp_path)]) != 0
    assert "FILE-MISSING" in capsys.readouterr().err


def test_content_files_are_data_only():
    for f in (ROOT / "spec" / "content").rglob("*"):
        if f.is_file():
            assert f.suffix == ".json", f"non-data file in spec/content: {f}"
