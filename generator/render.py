"""Render a Bundle into the core's source: a pure function, same bundle -> same bytes."""

from __future__ import annotations

from pathlib import Path

import jinja2

from rootlaw.spec import Bundle
from rootlaw.spec import models as M

from .tables import Tables, Uses, build_tables, late_const

TEMPLATES = Path(__file__).resolve().parent / "templates"
REGENERATE = "rootlaw build"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        # A block tag on a line of its own leaves no trace: guards and includes
        # in the partials do not shift the generated code.
        trim_blocks=True,
        lstrip_blocks=True,
    )


def template_files(partials: list[str]) -> list[str]:
    """The template files a core is rendered from, in the order they appear in it."""
    return ["core.py.j2", "core/prelude.py.j2", *(f"core/{p}.py.j2" for p in partials)]


def banner(bundle_hash: str, partials: list[str]) -> list[str]:
    """The generated file's opening comment lines: do not edit, how to regenerate, and
    the templates (under generator/templates/) it came from."""
    lines = [f"GENERATED, DO NOT EDIT: rendered by rootlaw.generator for bundle {bundle_hash};",
             f"regenerate with `{REGENERATE}`.  Templates (generator/templates/):"]
    line = ""
    for name in template_files(partials):
        if line and len(line) + len(name) + 2 > 84:
            lines.append(line + ",")
            line = ""
        line = f"{line}, {name}" if line else name
    lines.append(line + ".")
    return lines


def _reads_enemies(bundle: Bundle) -> bool:
    """Whether a clearing filter of the bundle's content, anywhere, tests 'enemies'."""
    return any(isinstance(x, M.ClearingFilter) and x.enemies is not None
               for x in M.walk((bundle.library, bundle.deck, bundle.factions)))


def _gives_from_play(bundle: Bundle) -> bool:
    """Whether the bundle's content reads others' crafted cards: a 'give' from a play
    area, an effect targeting a player with one."""
    return any((isinstance(x, M.GivePart) and x.source == "play_area") or
               (isinstance(x, M.Effect) and x.target == "other_player_with_crafted")
               for x in M.walk((bundle.library, bundle.deck, bundle.factions)))


def _spends_from_hand(bundle: Bundle) -> bool:
    """Whether a 'spend' of the bundle's programs pays from the hand (zone_pay's -1)."""
    return any(isinstance(x, M.SpendPart) and x.source == "hand"
               for x in M.walk(bundle.library))


def render_core(bundle: Bundle, tables: Tables | None = None, uses: Uses | None = None) -> str:
    """The core module's source for a bundle (Cython pure-Python mode).  It holds only
    the primitives the bundle uses (``tables.uses``); ``uses`` overrides that, for tests
    (``tables.EVERYTHING`` emits every family)."""
    t = tables or build_tables(bundle)
    u = uses or t.uses
    # (An effect instead of a draw needs its tables: a bundle with such an effect.)
    late = {"draw_instead"} if "STEP_DRAWS" not in t.table_layout.offsets else set()
    partials = [x for x in u.partials if x not in late]
    return _environment().get_template("core.py.j2").render(
        banner=banner(t.bundle_hash, partials),
        partials=partials,
        ops=u.ops,
        menu=u.menu,
        columns=u.columns,
        # (the ability kinds the tables have rows for: a late kind past the last the
        # bundle uses has none, whatever 'uses' asks to emit)
        abilities=[k for k in u.abilities if f"AB_{k.upper()}" in t.consts],
        # Move edges that are not paths (models.Moving), and each faction's crafting
        # pieces ('crafting_adjacent'): their tables, where content uses them.
        edge_links="EDGE_PATH" in t.table_layout.offsets,
        craft_links="FACTION_CRAFT_PIECES" in t.table_layout.offsets,
        # Links of a player's own (rivers as paths, crafting clearings): every reading
        # of adjacency is the player's, the core's 'adjacent' (their tables: where the
        # bundle's own content has such links, tables.HOLDER_LINK_ABILITIES).
        holder_links="RIVER_ADJ" in t.table_layout.offsets or
        "FACTION_CRAFT_PIECES" in t.table_layout.offsets,
        # Rivers joining clearings, for the holder of 'rivers_are_paths' (RIVER_ADJ).
        river_adj="RIVER_ADJ" in t.table_layout.offsets,
        eops=u.eops,
        parts=u.parts,
        values=u.values,
        frames=[x for x in u.frames if x not in late],
        # A zone of the bundle's takes every card spent or discarded (Law 10.6.2).
        catch_discards=t.consts.get("CATCH_F", -1) >= 0,
        # Several crafting pieces, of a cycle's suit (Law 10.2.1): craft_spare reads them.
        craft_multi=bool(t.consts.get("CRAFT_MULTI")),
        # Battle and march entries of a cycle's suit or with a cost (Law 10.4.3).
        menu_where=t.menu_where,
        # March entries followed by a battle in their destination (Law 10.4.3).
        then_battle=bool(t.consts.get("THEN_BATTLE")),
        # ... one that must be initiated, and an effect's actions taken while one can be
        # (FR_TAKE_ACTIONS field 6: no 'done'): 'take a move, then initiate a battle'.
        then_battle_must=bool(t.consts.get("THEN_BATTLE_MUST")),
        must_actions=bool(t.consts.get("MUST_ACTIONS")),
        # Effects offered only as a phase ends ('end_of_birdsong', 'end_of_daylight').
        end_timings=bool(t.consts.get("END_TIMINGS")),
        # What an effect program's actions did (models.Did): S_DID.
        did="DID" in t.state_layout.offsets,
        # An effect's target: another player with warriors on the map (False Orders).
        target_warriors="TG_OTHER_PLAYER_WITH_WARRIORS" in t.consts,
        # add_to_columns steps with a cap on all columns' cards or a shift (Law 15.6.2).
        column_limits="COLUMNS_SHIFT" in t.consts,
        column_shift=bool(t.consts.get("SHIFTS")),
        # Two-faced buildings (Law 15.2.2): placing one takes its other face out of play.
        faces="PIECE_FACE" in t.table_layout.offsets,
        # Warriors that carry tokens on a move (Law 15.2.4): the mover is asked which.
        carry="PIECE_CARRIES" in t.table_layout.offsets,
        # Pieces that may turn out to be others when turned over (Law 15.2.1's relics).
        reveals="PIECE_REVEALS" in t.table_layout.offsets,
        # Tokens laid face down whose face their owner chose and knows (Law 13.2.2):
        # S_HFACE, and the faces' supply as only their owner knows it.
        hidden_faces="PIECE_FACES" in t.table_layout.offsets,
        # A card taken at random from each other player with a piece in a clearing
        # (models.TakePart 'others_here', Law 13.7: a card from each enemy there).
        take_from_hands=any(isinstance(x, M.TakePart) and x.source == "others_here"
                            for x in M.walk((bundle.deck, bundle.factions,
                                             tuple(bundle.programs.values())))),
        # Offers another player takes up on its own turn (models.Offer, Law 13.2.4).
        offers=bool(t.offers),
        # Actions counted this turn (models.TakenValue, Law 13.5.2): S_TAKEN.
        taken="TAKEN" in t.state_layout.offsets,
        # Columns whose cards are taken one of several ways ('or', Law 15.5.2).
        column_ways="CW" in t.consts,
        # resolve_columns steps without a hook: their cards optional (Law 15.5.2).
        optional_columns=bool(t.consts.get("OPTIONAL_COLUMNS")),
        # A column's program discards the card it resolves (Law 15.5.2): kept at S_RESOLVING.
        resolving="RESOLVING" in t.state_layout.offsets,
        # The conditions of abilities that ignore the first hit taken (Law 15.2.4): the
        # bundle's (their state slots are its), where the ability kind is emitted.
        first_hits=t.first_hits if "ignore_first_hit" in u.abilities else [],
        # Extra hits under a condition (Law 14.7.8, 13.2.5): each (condition, hits).
        hits_ifs=t.hits_ifs if {"attack_hits_if", "defend_hits_if"} & set(u.abilities)
        else [],
        # The conditions of effects offered only while they hold ('when'): the bundle's.
        effect_whens=t.effect_whens,
        # Triggers that run for each piece removed (Law 15.2.5): their reactions queued
        # one a piece.
        per_piece=t.per_piece,
        # Pieces held on cards (models.CardBox): S_POOL, its helpers in core/cards.
        pools="POOL" in t.state_layout.offsets,
        # Effects paid by exhausting a crafted item (models.Effect.cost): S_EXHAUSTED.
        exhaust="EXHAUSTED" in t.state_layout.offsets,
        # Removed pieces not yet taken by a rule (S_LOOSE: tables.Tables.loose).
        loose="LOOSE" in t.state_layout.offsets,
        # Triggers reacting to an item crafted (the Exiles deck's Murine Broker).
        item_triggers=t.item_triggers,
        # A clearing filter's 'enemies' (Law 4.3.1): its helper, where any content's
        # filter (a program's, an effect's, a condition's) reads it.
        enemies_in=_reads_enemies(bundle),
        # A 'give' from a play area (a crafted card discarded, Law 4.1.3): FR_ZONE_GIVE's field 7.
        give_from_play=_gives_from_play(bundle),
        # A 'spend' from the hand (the Exiles deck's Propaganda Bureau): zone -1.
        spend_hand=_spends_from_hand(bundle),
        # A program instance whose parts call a family left out (a test's emission) is
        # left out with it, dispatch and all.
        programs=[x for x in t.programs if x.uses <= set(partials)],
        effect_parts=[x for x in t.effect_parts if x.uses <= set(partials)],
        bundle_hash=t.bundle_hash,
        # (a late frame's or event's code: declared only where used, in no layout)
        consts=[(k, v) for k, v in t.consts.items() if late_const(k, u) is not False],
        layout_consts=[(k, v) for k, v in t.consts.items() if late_const(k, u) is None],
        table_offsets=list(t.table_layout.offsets.items()),
        state_offsets=list(t.state_layout.offsets.items()),
        action_offsets=list(t.actions.offsets.items()),
        observation=t.observation,
        table=t.table,
    )
