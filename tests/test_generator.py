"""The generator: the core is composed of template partials and holds only the primitive
families a bundle's content uses; the same bundle renders the same bytes, and what is
left out never changes a game."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import typing
from array import array
from functools import cache
from pathlib import Path

import pytest

from rootlaw.generator import build as gbuild
from rootlaw.generator import build_tables, render_core
from rootlaw.generator.render import TEMPLATES
from rootlaw.generator.tables import (
    ABILITY_KINDS,
    COLUMN_ACTIONS,
    EFFECT_OPS,
    EVERYTHING,
    FRAME_KINDS,
    MENU_ACTIONS,
    PART_KINDS,
    PARTIALS,
    STEP_OPS,
    VALUE_KINDS,
    late_const,
    uses_of,
)
from rootlaw.runtime import Game
from rootlaw.runtime.conformance import cores_agree, play_checked
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import Bundle, resolve
from rootlaw.spec.loader import load_file

FAMILIES = Path(__file__).resolve().parent / "data" / "families"


# Bundles on the base map and deck whose factions use only some primitive families: the
# two test factions of tests/data/families (no crafting, columns, roles or abilities),
# and each of them beside a base faction (no columns and roles; no rescue and some
# setup steps); test-green has triggers and an effect of its own (no crafting);
# test-yellow zones, boxes and tokens from a track (no crafting, columns or roles);
# test-seasons has cycles and scores forests (no crafting, columns or effects of its own).
MIXES = {
    "subset": ("test-red", "test-blue"),
    "marquise+blue": ("marquise", "test-blue"),
    "eyrie+red": ("eyrie", "test-red"),
    # Zones, boxes and tokens from a track without crafting, columns, roles or rescue.
    "red+yellow": ("test-red", "test-yellow"),
    "marquise+green": ("marquise", "test-green"),
    "marquise+seasons": ("marquise", "test-seasons"),
}

# Primitives added for homebrew content (examples/): no base faction uses them, and the
# families bundles cover them.
HOMEBREW_ONLY = {"run_stage"}
HOMEBREW_VALUES = {"forests_held", "each_forest", "random_piece", "evenly"}
HOMEBREW_PARTIALS = {"forests", "cycles", "prog_battle", "choices", "forest_pick", "draw_instead",
                     "faces", "swap"}
# Program parts no base program uses (a pack's library brings the program): the packs of
# tests/data/packs/replace-verbs and piles cover them (tests/test_content_verbs.py and
# tests/test_card_piles.py play them); 'set_stage' moving a marker on (the standard
# advance_cycle's) the families bundle with test-seasons, on a named stage
# tests/data/packs/stages (tests/test_stage_parts.py).  'if' is the base's too: the
# Eyrie's Emergency Orders (Law 7.4.1, the standard draw_if_hand_empty).
HOMEBREW_PARTS = {"replace", "put_all", "set_stage", "battle", "move", "second_choice",
                  "reveal", "stop", "pick_forest", "carry", "move_warriors", "take",
                  "evening_draw", "face_down", "swap"}
# ('face_down': tokens laid face down with faces their owner knows, Law 13.2.2, and
# 'swap', Law G.33: tests/data/packs/face-down-plots and tests/test_face_down.py.)
# ('move_warriors', a move of another's warriors the actor chooses, 'take' from the
# discard pile and 'evening_draw', an effect instead of a draw: the Exiles deck's False
# Orders and Informants, tests/test_exiles_partisans.py.)
# ('tuck' is the base game's too: the Eyrie's viziers, Law 7.3.4.  The Keepers' parts:
# tests/data/packs/relic-recover, prized-trophies, carry-relics and
# examples/keepers-in-iron cover them, with the values 'random_piece' and 'evenly':
# tests/test_recover.py, test_prized_trophies.py, test_carry.py, test_keepers_as_data.py.)
# Core ability kinds no base faction has: tests/data/packs/rituals covers them (ruling
# with pieces, Law 10.2.4: tests/test_limits.py), first-hit the Keepers' first hit, and
# the Exiles deck's cards (examples/exiles-partisans) the rest but one: moves
# along rivers needing no rule (the Riverfolk's Swimmers, Law 11.2.2), a bundle of
# tests/test_moving_ability.py's own.
HOMEBREW_ABILITIES = {"rule_with", "ignore_first_hit", "rivers_are_paths", "move_ignores_rule",
                      "river_move_ignores_rule", "item_vp_extra", "rule_tokens",
                      "crafting_adjacent", "attack_hits_if", "defend_hits_if",
                      "exclusive_moves"}
# (Extra hits under a condition, Law 14.7.8 and 13.2.5: tests/test_battle_hits_if.py's
# bundle of its own; a token that forbids moves out, Law 13.7's snare:
# tests/data/packs/face-down-plots.)
EXILES_PACK = Path(__file__).resolve().parent.parent / "examples" / "exiles-partisans"
PARTS_PACK = Path(__file__).resolve().parent / "data" / "packs" / "replace-verbs"
CONSPIRACIES_PACK = Path(__file__).resolve().parent / "data" / "packs" / "conspiracies"
PILES_PACK = Path(__file__).resolve().parent / "data" / "packs" / "piles"
FACES_PACK = Path(__file__).resolve().parent / "data" / "packs" / "face-down-plots"
RITUALS_PACK = Path(__file__).resolve().parent / "data" / "packs" / "rituals"
STAGES_PACK = Path(__file__).resolve().parent / "data" / "packs" / "stages"
BATTLE_PARTS_PACK = Path(__file__).resolve().parent / "data" / "packs" / "battle-parts"
FOREST_PACK = Path(__file__).resolve().parent / "data" / "packs" / "forest-relics"
FIRST_HIT_PACK = Path(__file__).resolve().parent / "data" / "packs" / "first-hit"


@cache
def mixed_bundle(name: str) -> Bundle:
    b = base_bundle()
    factions = tuple(b.faction(fid) if fid in ("marquise", "eyrie")
                     else load_file(FAMILIES / f"{fid}.json") for fid in MIXES[name])
    return Bundle(b.map, b.deck, factions)


def subset_bundle() -> Bundle:
    return mixed_bundle("subset")


def core_class(source: str) -> ast.ClassDef:
    tree = ast.parse(source)
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Core")


def methods(source: str) -> set[str]:
    return {n.name for n in core_class(source).body if isinstance(n, ast.FunctionDef)}


def self_calls(source: str) -> set[str]:
    """Names of the methods the Core class calls on itself."""
    return {n.func.attr for n in ast.walk(core_class(source))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}


def module_statements(source: str) -> list[str]:
    """The module's statements apart from the Core class (constants, tables, RNG), by AST:
    comments such as the banner do not count."""
    return [ast.dump(n) for n in ast.parse(source).body
            if not (isinstance(n, ast.ClassDef) and n.name == "Core")]


def load_source(source: str, path: Path, name: str):
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- same bundle, same bytes


@pytest.mark.parametrize("bundle", [base_bundle, subset_bundle], ids=["base", "subset"])
def test_rendering_twice_gives_the_same_bytes(bundle):
    assert render_core(bundle()) == render_core(bundle())


RENDER_DIGESTS = """
import hashlib
import json
from rootlaw.generator import render_core
from rootlaw.runtime.game import base_bundle
from rootlaw.spec import Bundle
from rootlaw.spec.loader import load_file
b = base_bundle()
subset = Bundle(b.map, b.deck, tuple(load_file(f"{FAMILIES}/{fid}.json")
                                     for fid in ("test-red", "test-blue")))
print(*(hashlib.sha256(render_core(x).encode()).hexdigest() for x in (b, subset)))
"""


def test_rendering_is_the_same_in_other_processes():
    # No set or dict order may leak into the source: other hash seeds, same bytes.
    here = [hashlib.sha256(render_core(b).encode()).hexdigest()
            for b in (base_bundle(), subset_bundle())]
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", RENDER_DIGESTS.replace("{FAMILIES}",
                                                                            str(FAMILIES))],
                             env=env, capture_output=True, text=True, check=True)
        assert out.stdout.split() == here


# ---------------------------------------------------------------- the partials


def test_every_partial_file_is_in_the_registry_and_back():
    on_disk = sorted(p.name for p in (TEMPLATES / "core").glob("*.py.j2"))
    registered = sorted([f"{p.name}.py.j2" for p in PARTIALS] + ["prelude.py.j2"])
    assert on_disk == registered
    assert len({p.name for p in PARTIALS}) == len(PARTIALS)


def test_the_core_s_step_ops_are_the_engine_s_steps_and_a_program():
    """The step ops the core knows are the models' closed list of the engine's steps
    (every other op names a program: one code, 'program', whichever program it is)."""
    from rootlaw.spec import models as M

    assert (*M.ENGINE_STEP_OPS, "program") == STEP_OPS
    engine = [m for m in typing.get_args(typing.get_args(M.Step)[0])
              if typing.get_args(m)[0] is not M.ProgramStep]
    assert [typing.get_args(typing.get_args(m)[0].model_fields["op"].annotation)[0]
            for m in engine] == list(M.ENGINE_STEP_OPS)


def test_registry_codes_are_catalogue_codes_and_each_frame_has_one_home():
    for p in PARTIALS:
        assert set(p.ops) <= set(STEP_OPS), p.name
        assert set(p.menu) <= set(MENU_ACTIONS), p.name
        assert set(p.columns) <= set(COLUMN_ACTIONS), p.name
        assert set(p.abilities) <= set(ABILITY_KINDS), p.name
        assert set(p.eops) <= set(EFFECT_OPS), p.name
        assert not p.always or not (p.ops or p.menu or p.columns or p.abilities or p.eops), \
            p.name
    homes = [fr for p in PARTIALS for fr in p.frames]
    assert sorted(homes) == sorted(FRAME_KINDS)


def test_the_base_bundle_uses_every_family():
    # So the golden transcripts and perft counts, all on the base bundle, run every
    # family the generator can emit (the Woodland Alliance brought the last: triggers),
    # but the homebrew primitives, which the families bundles cover.
    uses = build_tables(base_bundle()).uses
    assert HOMEBREW_ONLY.isdisjoint(uses.ops) and HOMEBREW_VALUES.isdisjoint(uses.values)
    assert HOMEBREW_PARTS.isdisjoint(uses.parts)
    assert HOMEBREW_ABILITIES.isdisjoint(uses.abilities)
    assert uses == uses_of([k for k in STEP_OPS if k not in HOMEBREW_ONLY], MENU_ACTIONS,
                           COLUMN_ACTIONS,
                           [k for k in ABILITY_KINDS if k not in HOMEBREW_ABILITIES],
                           EFFECT_OPS,
                           [k for k in PART_KINDS if k not in HOMEBREW_PARTS],
                           [k for k in VALUE_KINDS if k not in HOMEBREW_VALUES])
    assert set(uses.partials) == set(EVERYTHING.partials) - HOMEBREW_PARTIALS
    assert {p.name for p in PARTIALS
            if set(p.ops) & HOMEBREW_ONLY or set(p.values) & HOMEBREW_VALUES or
            set(p.parts) & HOMEBREW_PARTS and not set(p.parts) - HOMEBREW_PARTS and
            not set(p.ops) - HOMEBREW_ONLY and not p.menu and not p.columns} == \
        HOMEBREW_PARTIALS  # (move: the base game's march pulls it in, as the part does)
    covered = {k for mix in MIXES for k in build_tables(mixed_bundle(mix)).uses.ops}
    assert covered >= HOMEBREW_ONLY
    covered = {k for mix in MIXES for k in build_tables(mixed_bundle(mix)).uses.values}
    assert covered >= HOMEBREW_VALUES - {"each_forest", "random_piece", "evenly"}
    # (pieces in forests: the pack tests/test_forest_places.py plays)
    forest = build_tables(resolve([FOREST_PACK])).uses
    assert "each_forest" in forest.values and \
        {"move", "second_choice", "reveal"} <= set(forest.parts)
    assert set(build_tables(resolve([PARTS_PACK])).uses.parts) >= {"replace"}
    assert set(build_tables(resolve([BATTLE_PARTS_PACK])).uses.parts) >= {"battle"}
    assert set(build_tables(resolve([CONSPIRACIES_PACK])).uses.parts) >= {"if", "set_stage"}
    assert set(build_tables(resolve([PILES_PACK])).uses.parts) >= {"put_all"}
    assert {"face_down", "swap"} <= set(build_tables(resolve([FACES_PACK])).uses.parts)
    assert set(build_tables(resolve([RITUALS_PACK])).uses.abilities) | \
        set(build_tables(resolve([FIRST_HIT_PACK])).uses.abilities) | \
        set(build_tables(resolve([EXILES_PACK], deck_id="exiles-partisans")).uses.abilities) \
        >= HOMEBREW_ABILITIES - {"river_move_ignores_rule", "attack_hits_if", "defend_hits_if",
                                 "exclusive_moves"}
    assert "exclusive_moves" in build_tables(resolve([FACES_PACK])).uses.abilities
    assert "set_stage" in build_tables(mixed_bundle("marquise+seasons")).uses.parts
    assert "set_stage" in build_tables(resolve([STAGES_PACK])).uses.parts


def test_the_banner_names_the_templates_and_the_command():
    src = render_core(subset_bundle())
    head = "".join(line[2:] + " " for line in src.splitlines()[:6] if line.startswith("# "))
    assert "GENERATED, DO NOT EDIT" in head and "`rootlaw build`" in head
    assert "core.py.j2" in head and "core/prelude.py.j2" in head and "core/battle.py.j2" in head
    assert "core/craft.py.j2" not in head and "core/columns.py.j2" not in head


def without(*codes: str) -> tuple:
    """Every code of the catalogues except these (to drop the families they pull in)."""
    keep = [[c for c in cat if c not in codes]
            for cat in (STEP_OPS, MENU_ACTIONS, COLUMN_ACTIONS, ABILITY_KINDS, EFFECT_OPS,
                        PART_KINDS, VALUE_KINDS)]
    return uses_of(*keep)


# Each family left out in turn, then all of them at once; and the subset bundle's own.
EMISSIONS = {
    **{f"no-{p.name}": without(*p.ops, *p.menu, *p.columns, *p.abilities, *p.eops, *p.parts,
                               *p.values)
       for p in PARTIALS if not p.always},
    "no-families": uses_of(),
}


@pytest.mark.parametrize("name", [*EMISSIONS, "subset", "base"])
def test_every_method_called_is_emitted(name):
    """A guard that leaves a method out must leave out its every caller as well."""
    if name in ("subset", "base"):
        src = render_core(subset_bundle() if name == "subset" else base_bundle())
    else:
        src = render_core(base_bundle(), uses=EMISSIONS[name])
        dropped = name.removeprefix("no-")
        if dropped != "families":
            assert dropped not in EMISSIONS[name].partials
    compile(src, name, "exec")
    missing = self_calls(src) - methods(src)
    assert not missing, f"{name}: called but not emitted: {sorted(missing)}"
    assert not tables_read_not_laid_out(src), name


def tables_read_not_laid_out(source: str) -> set[str]:
    """The table offsets (T_<name>) the core reads that its module does not declare: a
    guard that emits a reading must check the table exists (a bundle's tables are its
    own content's, whatever families a render emits)."""
    declared = set(re.findall(r"^(T_[A-Z0-9_]+) = ", source, re.M))
    return set(re.findall(r"\b(T_[A-Z0-9_]+)\b", source)) - declared


def test_links_of_one_kind_read_only_their_own_tables():
    """The Exiles deck without Boat Builders has Tunnels' links and no rivers as paths:
    rendered with every family, its core reads no river table it lacks (the ability's
    constant is laid out up to the last kind a bundle uses, its table only where used),
    and plays as its own core does."""
    import dataclasses

    from rootlaw.generator.tables import EVERYTHING, build_tables
    from rootlaw.spec import resolve

    b = resolve([EXILES_PACK])
    b = dataclasses.replace(b, deck=b.deck.model_copy(update={
        "cards": [c for c in b.deck.cards if c.id != "boat-builders"]}))
    t = build_tables(b)
    assert "crafting_adjacent" in t.uses.abilities and \
        "rivers_are_paths" not in t.uses.abilities
    own, full = render_core(b, t), render_core(b, t, uses=EVERYTHING)
    assert "def adjacent" in own and "def adjacent" in full
    assert not tables_read_not_laid_out(own) and not tables_read_not_laid_out(full)


def test_the_subset_core_leaves_out_what_its_factions_do_not_use():
    b = subset_bundle()
    uses = build_tables(b).uses
    # The only abilities are the base deck's cards' (persistent cards).
    assert uses.columns == () and uses.abilities == ("ignore_ambush_as_attacker", "effect")
    assert {"craft", "choose_role", "resolve_columns", "add_to_columns"}.isdisjoint(uses.ops)
    assert {"craft", "columns", "roles", "trigger_cost"}.isdisjoint(uses.partials)
    assert {"actions", "move", "battle", "pay", "programs"} <= set(uses.partials)
    assert {"trigger_cost", "craft_any"}.isdisjoint(uses.frames)

    src, full = render_core(b), render_core(b, uses=EVERYTHING)
    left_out = {
        "craft", "gen_craft", "craft_spare", "craft_any_settle",           # craft
        "gen_add", "gen_column", "gen_column_for", "do_column", "seek_column",  # columns
        "take_role", "retire_role", "gen_roles",                          # roles
        "cost_trigger_asks", "gen_matching_cards", "do_trigger_cost",     # field hospitals
        "gen_setup_buildings", "next_setup_building",   # setup_buildings_near_home
    }
    assert left_out <= methods(full)
    assert left_out.isdisjoint(methods(src))
    for dispatch in ("if op == OP_CRAFT:", "if op == OP_RESOLVE_COLUMNS:",
                     "if op == OP_CHOOSE_ROLE:", "if op == OP_STOP:",
                     "if kind == FR_TRIGGER_COST:", "if kind == FR_CRAFT_ANY:", "if act == CA_"):
        assert dispatch in full and dispatch not in src, dispatch
    # Kept: what the factions use.
    for used in ("place_if_none (Law 7.4.3) for faction", "self.start_pay(",
                 "if kind == FR_PAY:"):
        assert used in src, used
    assert len(src.splitlines()) < len(full.splitlines())
    # Constants, tables and the action space do not depend on what is emitted, but for
    # the codes of late frames and events (tables.LATE_FRAMES, LATE_EVENTS), declared
    # only where their families are (a speed matter: see there), and in no layout.
    late = [f"Name(id='{k}'" for k, v in build_tables(b).consts.items()
            if late_const(k, uses) is False]
    assert late and all(late_const(k, EVERYTHING) for k in build_tables(b).consts
                        if late_const(k, uses) is False)
    assert module_statements(src) == [x for x in module_statements(full)
                                      if not any(f"targets=[{n}" in x for n in late)]


@pytest.mark.parametrize("mix", MIXES)
def test_leaving_families_out_never_changes_a_game(tmp_path, mix):
    """A bundle's own core and one with every family emitted play the same games: the
    same legal actions and the same state after every decision (pure path)."""
    b = mixed_bundle(mix)
    assert build_tables(b).uses != EVERYTHING
    key = build_tables(b).bundle_hash
    own = load_source(render_core(b), tmp_path / "own.py", f"rootlaw_test_own_{key}")
    full = load_source(render_core(b, uses=EVERYTHING), tmp_path / "full.py",
                       f"rootlaw_test_full_{key}")
    size = own.LAYOUT["consts"]["STATE_SIZE"]
    assert own.LAYOUT == full.LAYOUT
    for seed in range(1, 4):
        s1, s2 = array("q", [0]) * size, array("q", [0]) * size
        a, z = own.Core(s1), full.Core(s2)
        a.init_game(seed, [0, 1])
        z.init_game(seed, [0, 1])
        trace = own.Core(array("q", s1)).playout_trace(seed, 5000)  # on a copy
        assert trace, "the game took no decision"
        for action in trace:
            assert a.legal_actions() == z.legal_actions()
            assert a.apply(action) == 1 and z.apply(action) == 1
            assert list(s1) == list(s2)
        assert s1[own.LAYOUT["state"]["OVER"]] == 1


@pytest.mark.parametrize("mix", MIXES)
def test_bundles_using_some_families_play_to_the_end_on_the_pure_core(mix):
    for seed in range(1, 6):
        g, problems = play_checked(mixed_bundle(mix), None, seed, max_decisions=20_000,
                                   pure=True)
        assert not problems, problems[:3]
        assert g.is_over and g.winner_faction in MIXES[mix], seed


def test_the_subset_bundle_compiles_and_agrees_with_the_pure_core():
    b = subset_bundle()
    gbuild.compile_core(b)  # cached by the bundle's hash: cheap after the first run
    g = Game(None, 1, bundle=b, pure=False)
    assert g.compiled
    assert g.playout(1) > 0 and g.is_over and g.winner is not None
    for seed in range(1, 4):
        assert cores_agree(b, None, seed, max_decisions=20_000) is None


# ---------------------------------------------------------------- build cache


def test_the_generator_fingerprint_covers_the_partials(tmp_path, monkeypatch):
    """A changed partial must not reuse a core built from the old one."""
    copy = tmp_path / "generator"
    shutil.copytree(gbuild.GENERATOR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(gbuild, "GENERATOR", copy)
    fingerprint = gbuild.generator_fingerprint.__wrapped__
    before = fingerprint()
    partial = copy / "templates" / "core" / "battle.py.j2"
    partial.write_text(partial.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert fingerprint() != before


def _income(bundle) -> set[str]:
    """The pieces the agents' evaluation reads as an income (PIECE_INCOME)."""
    t = build_tables(bundle)
    off, n = t.table_layout.offsets["PIECE_INCOME"], t.table_layout.sizes["PIECE_INCOME"]
    names = [name for f in bundle.factions for name in f.pieces]
    return {names[i] for i in range(n) if t.table[off + i]}


def test_an_income_is_a_track_a_step_s_program_scores_whatever_its_name(tmp_path):
    """The agents' income (docs/agents.md): the pieces whose track VP a step's program
    scores (a `score` of `track_vp`, Law 7.6.1's roosts), found from the program, not
    from the step's name: a pack's own program scoring the roosts is the same income."""
    from rootlaw.spec import resolve

    assert _income(resolve()) == {"roost"}
    (tmp_path / "pack.json").write_text(json.dumps(
        {"kind": "pack", "id": "tally", "name": "Tally", "version": "1",
         "requires": ["base"], "content": ["library.json", "patch.json"]}))
    (tmp_path / "library.json").write_text(json.dumps({"kind": "library", "id": "tally",
        "programs": {"tally": {"params": {"of": "building"},
                               "do": [{"op": "score", "vp": {"sum": [
                                   1, {"track_vp": "$of"}]}}]}}}))
    (tmp_path / "patch.json").write_text(json.dumps(
        {"kind": "patch", "target": "faction:eyrie", "patch": [
            {"op": "replace", "path": "/turn/evening/0",
             "value": {"op": "tally", "of": "roost"}}]}))
    b = resolve([tmp_path])
    assert [s.op for s in b.faction("eyrie").turn.evening][:1] == ["tally"]
    assert _income(b) == {"roost"}
    (tmp_path / "patch.json").write_text(json.dumps(
        {"kind": "patch", "target": "faction:eyrie", "patch": [
            {"op": "remove", "path": "/turn/evening/0"}]}))
    assert _income(resolve([tmp_path])) == set()
