"""Derive dense integer tables, the state layout and the action space from a Bundle.

Everything the generated core knows about content arrives through this module: ids
become dense integers, lists become flat int64 tables addressed by named offsets.  The
template only loops and substitutes (see ``render.py``); all decisions live here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from rootlaw.spec import Bundle
from rootlaw.spec import models as M

from .programs import (
    HOLDER_LINKS,
    TAKEN_SLOTS,
    EffectJump,
    ProgramError,
    compile_battle_hits_condition,
    compile_column_use,
    compile_effect_condition,
    compile_effect_part,
    compile_hit_condition,
    compile_menu_where,
    compile_step_use,
    compile_use,
    effect_ops,
    shape_of,
    take_mask,
)

SUITS = ("fox", "rabbit", "mouse", "bird")
SUIT = {s: i for i, s in enumerate(SUITS)}
ANY = 3  # a '?' cost icon shares the index of bird: both mean "any suit"
CARD_KINDS = ("item", "ambush", "dominance", "persistent", "immediate", "faction")
PIECE_KINDS = ("warrior", "building", "token")
MAX_COST = 4  # icons on the costliest card
MAX_DICE = 16  # battle rolls a scenario can queue
STOPS = ("end_of_turn", "end_of_phase")  # where a scenario can hold the turn (STOP_AT)

# Step ops, in catalogue order; the core dispatches on these codes.
STEP_OPS = ("place_at_buildings", "craft", "actions", "discard_down_to",
            "add_to_columns", "resolve_columns",
            "choose_role",
            "stop", "setup_buildings_near_home",
            "run_stage", "program")
# The parts of programs (spec/models.py Instruction), by their 'op'.
PART_KINDS = ("choose", "discard", "put", "place", "remove", "into_box", "spend", "pay",
              "score", "discard_all", "draw", "put_all", "replace", "take_home",
              "give", "show", "set_stage", "if", "battle", "move", "second_choice",
              "reveal", "stop", "pick_forest", "carry", "tuck", "move_warriors", "take",
              "evening_draw", "face_down", "swap")
# Values and places of programs whose code lives in a family of its own (the partial
# they pull in): a count of forests held, pieces placed in forests, a piece drawn at
# random from the supply (draw_piece), pieces dealt evenly among places (spread_evenly).
VALUE_KINDS = ("forests_held", "each_forest", "random_piece", "evenly")
# Menu entries the engine has a routine for; every other entry names a program of the
# bundle's libraries ("program": MENU_A is its instance, generator/programs.py).
MENU_ACTIONS = ("battle", "march", "craft", "program")
# Column actions (models.Column): the Law's move and battle, or a program (COL_PROG its
# instance, generator/programs.py compile_column_use).
COLUMN_ACTIONS = ("program", "move", "battle")
ABILITY_KINDS = ("rule_ties", "item_vp", "recruit_count", "attack_extra_hits",
                 "battle_removal_vp", "exclusive_placement", "trigger_cost",
                 "ignore_ambush_as_attacker", "effect", "trigger",
                 "defender_takes_high_roll", "rule_with", "ignore_first_hit",
                 "rivers_are_paths", "move_ignores_rule", "river_move_ignores_rule",
                 "item_vp_extra", "rule_tokens", "crafting_adjacent", "attack_hits_if",
                 "defend_hits_if", "exclusive_moves")
# The kinds from this index on are read only by code emitted where a bundle uses them:
# a bundle using none keeps the ability tables' rows as wide as before they were (the
# table's layout, which the compiled core's speed is sensitive to: docs/design.md).
LATE_ABILITY_KINDS = ABILITY_KINDS.index("ignore_first_hit")
# Ops of effect programs (effects, triggers, immediate cards), in catalogue order.
# 'part': a program part (models.EFFECT_PARTS), compiled on its own (EOP_A: its index,
# generator/programs.py compile_effect_part).
EFFECT_OPS = ("part", "hits", "take_actions", "trim_zone")
# When a usable effect is offered (models.Timing), whom it targets, which battle side uses it.
TIMINGS = ("start_of_birdsong", "start_of_daylight", "start_of_evening", "birdsong",
           "daylight", "evening", "battle_before_roll", "battle_after_roll",
           "end_of_birdsong", "end_of_daylight", "evening_draw")
# The timings past the battle ones came later: a bundle's TIMING_RANGE has rows for them
# only where an effect uses one, so the tables of a bundle without are as they were.
LATE_TIMINGS = 3
TARGETS = ("none", "other_player", "other_player_with_cards", "own_warrior", "clearing",
           "other_player_with_crafted", "other_player_with_warriors")
# ... the last came later: its code is declared only where an effect has it.
LATE_TARGETS = 1
SIDES = ("attacker", "defender", "any")
TRIGGER_EVENTS = ("pieces_removed", "warriors_moved_in", "item_crafted")

# Action types of the fixed action space, in order.  Each has a parameter shape.
# Menu entries reuse a type where the parameter means the same: recruit_at is
# 'recruit <clearing>', a craft entry 'craft <card>', a zone card paid 'spend <card>'.
ACTION_TYPES = ("done", "clearing", "role", "move", "battle", "build", "recruit_all",
                "recruit", "craft", "spend", "discard", "add", "spend_place", "remove",
                "activate", "take", "suit", "fail", "use", "spread", "revolt", "mobilize",
                "train", "organize", "first")
# Every engine action type is a verb a program may be offered as, or a word no content
# verb may be (a content verb is a new type, appended after these: build_tables).
assert set(ACTION_TYPES) <= set(M.VERB_SHAPES) | set(M.ENGINE_WORDS)


# Decision frames: what interrupts a step to ask a player (codes 1.., 0 = no frame).
# The runtime names the pending decision from these (Game.decision).
# ('trigger_cost' holds the place 'rescue' had, Field Hospitals' decision before it was a
# trigger with a cost: a save's frames keep their codes.)
FRAME_KINDS = ("march", "ambush", "foil", "remove", "trigger_cost", "pay", "place", "craft_any",
               "phase_end", "phase_start", "battle_effects", "effect", "react", "take_actions",
               "zone_pay", "zone_give", "zone_trim", "react_order", "defender", "then",
               "choice", "draw_instead")
# What the core reports as it happens (Core.take_events, while events_on): one record of
# EVENT_WIDTH numbers, the code (index here) and four arguments.  The runtime names them
# and decides who sees what (runtime/events.py); new codes go at the end.
#   card        (card, from location, to location, the seat that moved it or -1)
#   placed      (seat, clearing, piece, how many)
#   removed     (clearing, piece, the remover or -1)
#   scored      (seat, VP gained (negative: lost), why: SCORE_WHY, what: a piece, card
#               def, usable effect ...)
#   roll        (die, die, rolled hits the attacker deals, the defender deals: capped)
#   hits        (hits the defender takes, the attacker takes: Law 4.3.5)
#   shown       (seat whose hand, seat it is shown to)
#   hook        (seat, hook index: the content's name, e.g. a turmoil)
#   trigger     (holder, trigger index, clearing, the seat that acts on it)
#   reshuffled  (cards now in the deck)
#   won         (seat, 1 by dominance else 0)
#   turn        (the seat whose turn begins, the turn counter)
#   moved       (from clearing, to clearing, piece, how many)
#   paid        (seat, clearing, piece: one piece back to its supply as a cost, Law 6.5.4)
#   hit_ignored (seat, clearing: the first hit it took in the battle there, Law 15.2.4)
#   placed_in_forest (seat, forest, piece, how many: Law 15.3.1)
#   moved_from_forest (forest, clearing, piece, how many: Law 15.5.2, Delve)
#   revealed    (seat, clearing, the face-down piece, the piece it turned out to be)
#   moved_to_box (seat, clearing, piece, box: Law 15.5.2, Recover)
#   swapped     (seat, clearing, the other clearing, the kinds swapped as a bitmask:
#               Law G.33; 13.5.4: two plot tokens)
#   answered    (seat that guessed, clearing, the face it named, 1 right or 0 wrong: Law
#               13.2.4, a guess at a plot; the answer is public, the face stays down)
EVENTS = ("card", "placed", "removed", "scored", "roll", "hits", "shown", "hook", "trigger",
          "reshuffled", "won", "turn", "moved", "paid", "hit_ignored", "placed_in_forest",
          "moved_from_forest", "revealed", "moved_to_box", "swapped", "answered")
EVENT_WIDTH = 5
# Frames and events added after the base game's core was measured, which only some
# families use: a core declares their codes only where it emits those families
# (late_const).  Declared in every core, even last, they cost the base game's compiled
# playouts 2.5% (x0.971-0.976 in alternating rounds: the module's globals laid out
# anew); left out where unused, x1.00.
LATE_FRAMES = ("choice", "draw_instead")
UNCOUNTED_FRAMES = ("draw_instead",)  # past the observation's count of frame kinds
LATE_EVENTS = {"placed_in_forest": ("forests",), "moved_from_forest": ("forests",),
               "revealed": ("forests", "faces"), "moved_to_box": ("choices",),
               "swapped": ("swap",), "answered": ("faces",)}


def late_const(name: str, uses: Uses) -> bool | None:
    """None for a constant every core declares; for a late frame's or event's code
    (LATE_FRAMES, LATE_EVENTS), whether a core emitting ``uses`` declares it.  The
    runtime reads neither from a core's layout (it names frames and events by the
    tables' names), so they stay out of it."""
    for code in LATE_FRAMES:
        if name == f"FR_{code.upper()}":
            return code in uses.frames
    for code, partials in LATE_EVENTS.items():
        if name == f"E_{code.upper()}":
            return bool(set(partials) & set(uses.partials))
    return None


# Why VP were scored (the 'scored' event): a track's space uncovered by a piece placed, a
# card crafted, a usable effect or a card's program, an enemy piece removed (Law 3.2.1),
# a per-event bonus ability, the VP of a track for what is on the map, VP lost per card in
# columns, forests held.
SCORE_WHY = ("placed", "crafted", "effect", "removed", "bonus", "track", "columns", "forests")

# 'actions' step counts that are not a number (STEP_A): any number, ending with 'done';
# or, at COUNT_BOX - b and below, one per warrior in the faction's box b.
COUNT_ANY = -1
COUNT_BOX = -2
ANY_NUMBER = 1 << 40  # actions left of an 'any number' step: never runs out
# An add_to_columns step's STEP_D: its cap on the cards of all columns (0: none), plus
# this flag where it may shift one card between columns instead (Law 15.6.2).
COLUMNS_SHIFT = 1 << 20
FRAME_FIELDS = 8  # kind, player, then six fields each frame kind names for itself


@dataclass(frozen=True)
class Obs:
    """One field of the observation vector (``Game.observation_vector``): what one seat
    may see of one part of the state.  The core's encoder (``core/observe.py.j2``) and
    the runtime's layout (``Game.observation_layout``) are both made from OBSERVATION, so
    a new field is one entry there (docs/design.md, "The observation").

    kind      how the field is read (OBS_KINDS):
              "state"    a state field (``source``: its S_ name), copied;
              "flag"     1 when the state value ``source`` is not 0;
              "seat"     a state value holding a seat, shown from the observer (-1 stays);
              "cards"    cards at the card location ``source`` (a LOC_ name), counted per
                         card definition (K numbers per location);
              "observer" the observing seat; "to_play" the seat deciding now, from the
                         observer, -1 once over; "decision" what is asked (Game.decision)
                         as an index into frames, then step ops, then stops, -1 once over.
    per_seat  the source is one block per seat: a state field of P equal blocks, or a card
              location per seat (``source`` + seat * slots + slot).  Seats are listed from
              the observer on (0 is "me", then clockwise); a seat nobody sits in reads
              ``empty``.
    slots     cards, per seat: locations per seat, a constant's name ("L": a faction's
              columns); one when empty.
    visibility
              "public"  every seat sees every seat's part;
              "owner"   a seat sees only its own part: the field holds the observer's
                        block alone (its hand);
              "hidden"  cards only: nobody sees which cards, everybody sees how many (one
                        number per location: hand sizes);
              "face_up" cards only: every seat sees the cards of the locations that are
                        face up (a zone its content declares face up), none of the others.
    """

    name: str
    kind: str
    source: str = ""
    per_seat: bool = False
    slots: str = ""
    visibility: str = "public"
    empty: int = 0
    optional: bool = False  # a state field only some bundles have: left out elsewhere


# The terms of the agents' evaluation of a position (core/agent.py.j2), in the order of
# the weight vector an agent hands the core (runtime/agents.py holds their values): each
# is read from what the content declares (VP, tracks, pieces, rule, cards, dominance).
EVAL_TERMS = ("vp", "income", "next_step", "draw_bonus", "warrior", "boxed", "building",
              "token", "rule", "card", "card_over", "column_card", "zone_card", "play_card",
              "dominance", "dominance_step", "win")

OBS_KINDS = ("observer", "state", "flag", "seat", "to_play", "decision", "cards")
VISIBILITY = ("public", "owner", "hidden", "face_up")

# The observation vector, field by field, in order.  New fields go at the end, so that
# the offsets of the existing ones do not move (a trained policy keeps reading them).
OBSERVATION = (
    Obs("seat", "observer"),
    Obs("phase", "state", "PHASE"),
    Obs("turn", "state", "TURN"),
    Obs("current", "seat", "CURRENT"),
    Obs("to_play", "to_play"),
    Obs("decision", "decision"),
    Obs("over", "flag", "OVER"),
    Obs("deck_size", "state", "DECK_LEN"),
    Obs("faction", "state", "SEAT_FACTION", per_seat=True, empty=-1),
    Obs("vp", "state", "VP", per_seat=True),
    Obs("hand_size", "cards", "LOC_HAND", per_seat=True, visibility="hidden"),  # Law 1.2
    Obs("role", "state", "ROLE", per_seat=True, empty=-1),
    Obs("dominance", "state", "DOMINANCE", per_seat=True, empty=-1),
    Obs("board", "state", "BOARD"),
    Obs("ruins", "state", "RUINS"),
    Obs("supply", "state", "SUPPLY"),
    Obs("out", "state", "OUT"),
    Obs("hand", "cards", "LOC_HAND", per_seat=True, visibility="owner"),
    Obs("discard", "cards", "LOC_DISCARD"),
    Obs("available", "cards", "LOC_AVAILABLE"),
    Obs("removed", "cards", "LOC_OUT"),
    Obs("play_area", "cards", "LOC_PLAY", per_seat=True),
    Obs("columns", "cards", "LOC_COLUMN", per_seat=True, slots="L"),
    Obs("items", "state", "ITEMS"),
    Obs("crafted", "state", "CRAFTED", per_seat=True),
    # Effects used this turn (battle effects: this battle), public.
    Obs("used_effects", "state", "USED", per_seat=True),
    # Hands shown to the observer (a snapshot per seat, from the observer on, and when):
    # the observer's own memory (Law 1.2.1 'show').
    Obs("seen", "state", "SEEN", per_seat=True, visibility="owner"),
    Obs("seen_turn", "state", "SEEN_TURN", per_seat=True, visibility="owner"),
    # The battle in progress (public): its stage (0: none), sides, clearing, the rolled
    # and extra hits each side deals, and whether each ignores the rolled hits it takes.
    Obs("battle_stage", "state", "B_STAGE"),
    Obs("battle_attacker", "seat", "B_ATT"),
    Obs("battle_defender", "seat", "B_DEF"),
    Obs("battle_clearing", "state", "B_AT"),
    Obs("battle_rolled_by_attacker", "state", "B_ROLL_ATT"),
    Obs("battle_rolled_by_defender", "state", "B_ROLL_DEF"),
    Obs("battle_extra_by_attacker", "state", "B_EXTRA_ATT"),
    Obs("battle_extra_by_defender", "state", "B_EXTRA_DEF"),
    Obs("battle_attacker_ignores_rolled", "flag", "B_IGNORE_ATT"),
    Obs("battle_defender_ignores_rolled", "flag", "B_IGNORE_DEF"),
    # Zones (card piles apart from the hand, Law 8.2.3): how many cards each seat's hold,
    # and the cards of the observer's own (face down to everyone else); boxes (warriors
    # off the map, Law 8.1), public.
    Obs("zone_size", "cards", "LOC_ZONE", per_seat=True, slots="Z", visibility="hidden"),
    Obs("zones", "cards", "LOC_ZONE", per_seat=True, slots="Z", visibility="owner"),
    Obs("boxes", "state", "BOX", per_seat=True),
    # Where each seat's cycle markers stand (public): a stage index per cycle.
    Obs("cycles", "state", "CYCLE", per_seat=True),
    # Zones their content declares face up (a pile every player sees): their cards, for
    # every seat (a face-down zone's part stays empty: see "zones" and "zone_size").
    Obs("open_zones", "cards", "LOC_ZONE", per_seat=True, slots="Z", visibility="face_up"),
    # The pieces in each forest (public), in a bundle whose content puts pieces there.
    Obs("forests", "state", "FOREST", optional=True),
    # The pieces held on each card with a box (public: the pieces of each pool, per
    # piece), in a bundle with such a card.
    Obs("pools", "state", "POOL", optional=True),
    # How many of each seat's crafted items are exhausted (face down: public), in a
    # bundle with an effect that exhausts one (models.Effect.cost).
    Obs("exhausted", "state", "EXHAUSTED", per_seat=True, optional=True),
    # The faces of the observer's own tokens laid face down, per clearing (its face
    # piece + 1, 0: none): the observer's block alone, as its hand (Law 13.2.2), in a
    # bundle with such tokens (models.Piece.faces).
    Obs("faces", "state", "HFACE", per_seat=True, visibility="owner", optional=True),
    # The faces each seat's token laid face down in each clearing is known not to hide
    # (a bitmask over pieces: wrong guesses, answered aloud, Law 13.2.4), for every seat.
    Obs("faces_ruled_out", "state", "FACE_NOT", per_seat=True, optional=True),
)


@dataclass(frozen=True)
class ObsField:
    """An observation field placed: ``Obs`` with its numbers for one bundle."""

    name: str
    kind: str
    offset: int      # in the observation vector
    size: int        # numbers in the vector
    source: str      # the source's constant: S_<field> (state kinds), LOC_<place> (cards)
    block: int       # per seat: numbers per seat in the source (state) or locations (cards)
    per_seat: bool
    visibility: str
    empty: int


def place_observation(fields: tuple[Obs, ...], consts: dict[str, int],
                      state: Layout) -> list[ObsField]:
    """Offsets and sizes of the observation's fields for one bundle's constants and
    state layout (checked: a wrong entry fails the build, not a game)."""
    P, K = consts["P"], consts["K"]
    out: list[ObsField] = []
    off = 0
    for f in fields:
        assert f.kind in OBS_KINDS, f"{f.name}: no observation kind {f.kind!r}"
        assert f.visibility in VISIBILITY, f"{f.name}: no visibility {f.visibility!r}"
        assert f.visibility not in ("hidden", "face_up") or f.kind == "cards", \
            f"{f.name}: only cards can be hidden (their number shown) or face up"
        assert f.visibility != "face_up" or f.per_seat, f"{f.name}: 'face_up' needs per_seat"
        assert f.visibility != "owner" or f.per_seat, f"{f.name}: 'owner' needs per_seat"
        assert not f.slots or (f.kind == "cards" and f.per_seat), f"{f.name}: slots"
        source, block = "", 0
        if f.optional and f.source not in state.offsets:
            continue
        if f.kind in ("state", "flag", "seat"):
            assert f.source in state.offsets, f"{f.name}: no state field {f.source!r}"
            source, whole = "S_" + f.source, state.sizes[f.source]
            size = 1 if f.kind != "state" else whole
            if f.per_seat:
                assert f.kind == "state" and whole % P == 0, f"{f.name}: not per seat"
                block = whole // P
                size = block if f.visibility == "owner" else whole
        elif f.kind == "cards":
            assert f.source.startswith("LOC_") and f.source in consts, \
                f"{f.name}: no card location {f.source!r}"
            source = f.source
            block = consts[f.slots] if f.slots else 1
            assert consts[f.source] + (P * block if f.per_seat else 1) <= consts["NLOC"], \
                f"{f.name}: locations past NLOC"
            seats = P if f.per_seat and f.visibility != "owner" else 1
            size = seats * block * (1 if f.visibility == "hidden" else K)
        else:
            assert not f.source and not f.per_seat, f"{f.name}: {f.kind} reads no source"
            size = 1
        out.append(ObsField(f.name, f.kind, off, size, source, block, f.per_seat,
                            f.visibility, f.empty))
        off += size
    return out


@dataclass(frozen=True)
class Partial:
    """One template partial of the core's class body: ``templates/core/<name>.py.j2``.

    An ``always`` partial is emitted for every bundle.  The others are primitive
    families, emitted only when the bundle's content uses one of the codes listed
    (a step op, a menu action, a column action or an ability kind).  ``frames`` are
    the decision frames the partial pushes: their dispatch is emitted with it."""

    name: str
    always: bool = False
    ops: tuple[str, ...] = ()
    menu: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    eops: tuple[str, ...] = ()
    frames: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()  # program parts (PART_KINDS) whose code calls its methods
    values: tuple[str, ...] = ()  # program values (VALUE_KINDS) whose code calls them


# The core's class body, in order (the module prelude comes before it).  Adding a
# primitive family: a partial, an entry here naming the codes that pull it in, and the
# dispatch lines for its codes guarded in the always-emitted partials (docs/design.md).
# The order is also the order of the compiled functions, and the compiled core's speed
# depends on code layout: 'cards' comes early so that find_in, the hottest loop, sits
# where edits to later partials do not move it (docs/design.md, "Speed and layout").
PARTIALS = (
    Partial("rng", always=True),
    Partial("cards", always=True),
    Partial("queries", always=True),
    Partial("victory", always=True, frames=("phase_end",)),
    Partial("pieces", always=True, frames=("place", "react")),
    Partial("frames", always=True),
    Partial("setup", always=True),
    Partial("turn", always=True),
    Partial("legal", always=True),
    Partial("apply", always=True),
    Partial("actions", ops=("actions",), eops=("take_actions",)),
    Partial("move", menu=("march",), columns=("move",), frames=("march",),
            parts=("move_warriors",)),
    Partial("battle", menu=("battle",), columns=("battle",),
            frames=("ambush", "foil", "remove")),
    Partial("pay", parts=("pay",), frames=("pay",)),
    # A program's 'battle' (Law 4.3): the defender's choice, and the program's parts
    # after it waiting below the battle (FR_THEN).
    Partial("prog_battle", parts=("battle",), frames=("defender", "then")),
    # (and the pieces warriors carry on a move, Law 15.2.4: asked as the same frame)
    Partial("choices", parts=("second_choice", "carry", "pick_forest", "move_warriors"),
            frames=("choice",)),
    Partial("craft", ops=("craft",), menu=("craft",), frames=("craft_any",)),
    Partial("zones", parts=("put", "spend"),
            eops=("trim_zone",),
            frames=("zone_pay", "zone_trim")),
    # Cards between players' hands (the give and show parts); a given card's choice is
    # the frame 'zone_give' (the name records have always given it).
    Partial("hands", parts=("give", "show", "take"), frames=("zone_give",)),
    Partial("columns", ops=("add_to_columns", "resolve_columns"), parts=("tuck",)),
    Partial("roles", ops=("choose_role",)),
    Partial("effects", abilities=("effect", "trigger"), eops=EFFECT_OPS,
            frames=("phase_start", "battle_effects", "effect", "take_actions")),
    # An effect offered instead of an Evening's draw (models.Timing 'evening_draw').
    Partial("draw_instead", parts=("evening_draw",), frames=("draw_instead",)),
    Partial("triggers", abilities=("trigger",), frames=("react_order",)),
    Partial("trigger_cost", abilities=("trigger_cost",), frames=("trigger_cost",)),
    Partial("forests", values=("forests_held", "each_forest", "random_piece", "evenly")),
    # An effect program's piece placed in a forest of its actor's choice (Law 15.2.5).
    # (asked as the frame 'choice', the choices' family's, its field 2 negative: -1 - the
    # effect part)
    Partial("forest_pick", parts=("pick_forest",)),
    Partial("cycles", ops=("run_stage",), parts=("set_stage",)),
    # Tokens laid face down with a face their owner chose (models.Piece.faces, Law
    # 13.2.2): a placement 'face_down', and the reveal of such a token.
    Partial("faces", parts=("face_down",)),
    # A swap of pieces between two clearings (Law G.33; 13.5.4: two plot tokens).
    Partial("swap", parts=("swap",)),
    Partial("api", always=True),
    Partial("scenario", always=True),
    Partial("knowledge", always=True),
    Partial("programs", ops=("program",), menu=("program",)),
    Partial("observe", always=True),
    Partial("agent", always=True),
)


@dataclass(frozen=True)
class Uses:
    """The primitives a bundle's content uses, and so what its core emits.  Every field
    is in catalogue order (never a set's order), so a bundle renders the same bytes in
    every process."""

    ops: tuple[str, ...]        # step ops (STEP_OPS)
    menu: tuple[str, ...]       # menu actions of 'actions' steps (MENU_ACTIONS)
    columns: tuple[str, ...]    # column actions (COLUMN_ACTIONS)
    abilities: tuple[str, ...]  # ability kinds (ABILITY_KINDS), of factions and cards
    eops: tuple[str, ...]       # effect ops of every program (EFFECT_OPS)
    parts: tuple[str, ...]      # parts of the programs menus run (PART_KINDS)
    partials: tuple[str, ...]   # the class body's partials, in PARTIALS order
    frames: tuple[str, ...]     # decision frames the emitted partials push (FRAME_KINDS)
    values: tuple[str, ...] = ()  # values of a family of their own (VALUE_KINDS)


def uses_of(ops: Iterable[str] = (), menu: Iterable[str] = (), columns: Iterable[str] = (),
            abilities: Iterable[str] = (), eops: Iterable[str] = (),
            parts: Iterable[str] = (), values: Iterable[str] = ()) -> Uses:
    """What is emitted for content that uses these codes: the always-emitted partials,
    every family one of the codes pulls in, and the frames of those partials."""

    def in_order(catalogue: tuple[str, ...], names: Iterable[str]) -> tuple[str, ...]:
        names = set(names)
        unknown = names - set(catalogue)
        assert not unknown, f"not in the catalogue: {sorted(unknown)}"
        return tuple(code for code in catalogue if code in names)

    u_ops = in_order(STEP_OPS, ops)
    u_menu = in_order(MENU_ACTIONS, menu)
    u_columns = in_order(COLUMN_ACTIONS, columns)
    u_abilities = in_order(ABILITY_KINDS, abilities)
    u_eops = in_order(EFFECT_OPS, eops)
    u_parts = in_order(PART_KINDS, parts)
    u_values = in_order(VALUE_KINDS, values)
    emitted = [p for p in PARTIALS
               if p.always or set(p.ops) & set(u_ops) or set(p.menu) & set(u_menu)
               or set(p.columns) & set(u_columns) or set(p.abilities) & set(u_abilities)
               or set(p.eops) & set(u_eops) or set(p.parts) & set(u_parts)
               or set(p.values) & set(u_values)]
    frames = in_order(FRAME_KINDS, [fr for p in emitted for fr in p.frames])
    return Uses(u_ops, u_menu, u_columns, u_abilities, u_eops, u_parts,
                tuple(p.name for p in emitted), frames, u_values)


EVERYTHING = uses_of(STEP_OPS, MENU_ACTIONS, COLUMN_ACTIONS, ABILITY_KINDS, EFFECT_OPS,
                     PART_KINDS, VALUE_KINDS)


def value_kinds(obj) -> list[str]:
    """The values and places of VALUE_KINDS a program (or any part of one) reads, at any
    depth."""
    return ["forests_held" if isinstance(m, M.ForestsHeld) else
            "random_piece" if isinstance(m, M.RandomPiece) else
            "evenly" if isinstance(m, M.PlacePart) else "each_forest"
            for m in M.walk(obj) if isinstance(m, (M.ForestsHeld, M.ForestFilter,
                                                   M.RandomPiece)) or
            (isinstance(m, M.PlacePart) and m.evenly)]


def part_ops(prog: M.Program) -> list[str]:
    """The part kinds (PART_KINDS) of a program: its parts' ops, and 'second_choice' for
    a choice after its first part (the FR_CHOICE family)."""
    ops = [part.op for _, part in M.flat_parts(prog.do)]
    if any(isinstance(x, M.PlacePart) and x.face_down for _, x in M.flat_parts(prog.do)):
        ops.append("face_down")
    if any(isinstance(x, M.ChoosePart) for x in prog.do[1:]):
        ops.append("second_choice")
    return ops


def content_uses(bundle: Bundle) -> Uses:
    """The codes a bundle's content uses: steps of every program (setup, phases, hooks),
    menus of their 'actions' steps and of 'take_actions' ops, column actions, ability
    kinds (of factions and of the deck's cards) and the ops of effect programs."""
    ops: list[str] = []
    menu: list[str] = []
    library = bundle.programs
    parts: list[str] = []
    values: list[str] = []

    def entries(menu_entries) -> list[str]:
        """A menu's codes: a program's entry is 'program', and its parts count."""
        out = []
        for m in menu_entries:
            prog = library.get(m.action)
            if prog is None:
                out.append(m.action)
                values.extend(value_kinds(m))  # a battle's or march's 'when'
            else:
                out.append("program")
                parts.extend(part_ops(prog))
                values.extend(value_kinds(prog))
        return out

    if any(p.faces for f in bundle.factions for p in f.pieces.values()):
        parts.append("face_down")  # tokens laid face down, and their reveal (faces)
    then_battle = False  # a march followed by a battle (Law 10.4.3)
    for f in bundle.factions:
        for steps in (f.setup, f.turn.birdsong, f.turn.daylight, f.turn.evening,
                      *f.hooks.values()):
            for s in steps:
                step_prog = step_program(s, library)
                if step_prog is not None:
                    ops.append("program")
                    parts.extend(_step_parts(step_prog, s, f))
                    values.extend(value_kinds(step_prog))
                    continue
                ops.append(s.op)
                if isinstance(s, M.ChooseRole) and s.then is not None:
                    then = library.get(s.then)
                    if then is not None:  # (none: validation reports it, PROGRAM-REF)
                        ops.append("program")
                        parts.extend(_step_parts(then, role_then(s), f))
                        values.extend(value_kinds(then))
                if isinstance(s, M.Actions):
                    menu.extend(entries(s.menu))
                    then_battle = then_battle or any(
                        isinstance(m, M.MarchAction) and m.then_battle for m in s.menu)
    for f in bundle.factions:  # an offer's program, as a menu entry's (models.Offer)
        menu.extend(entries([a.use for a in f.abilities if isinstance(a, M.Offer)]))
    abilities = [a for f in bundle.factions for a in f.abilities] + \
        [a for c in bundle.deck.cards for a in c.abilities]
    programs = [a.do for a in abilities if isinstance(a, (M.Effect, M.Trigger))] + \
        [c.on_craft for c in bundle.deck.cards if c.on_craft]
    programs = [effect_ops(prog) for prog in programs]
    eops = ["part" if isinstance(op, (M.EFFECT_PARTS, EffectJump)) else effect_op_name(op)
            for prog in programs for op in prog]
    parts += [op.op for prog in programs for op in prog if isinstance(op, M.EFFECT_PARTS)]
    parts += ["pick_forest" for prog in programs for op in prog
              if isinstance(op, M.PlacePart) and isinstance(op.at, M.AtForest)]
    parts += ["move_warriors" for prog in programs for op in prog
              if isinstance(op, M.MovePart)]  # a player's warriors moved, the actor's choice
    parts += ["evening_draw" for a in abilities
              if isinstance(a, M.Effect) and a.timing == "evening_draw"]
    values += [v for prog in programs for v in value_kinds(prog)]
    parts += ["put" for prog in programs for op in prog
              if (isinstance(op, (M.DrawPart, M.GivePart)) and op.into is not None) or
              (isinstance(op, M.DiscardAllPart) and op.source not in ("hand", "columns"))]
    if any(p.carries for f in bundle.factions for p in f.pieces.values()):
        parts.append("carry")  # warriors that carry tokens on a move (Law 15.2.4)
    if then_battle:  # the battle that may follow is offered as a one-action menu
        menu.append("battle")
        eops.append("take_actions")
    if "battle" in parts:  # a program's battle is the Law's (the battle family)
        menu.append("battle")
    menu += [x for prog in programs for op in prog if isinstance(op, M.Actions)
             for x in entries(op.menu)]
    if not then_battle and any(isinstance(m, M.MarchAction) and m.then_battle
                               for prog in programs for op in prog
                               if isinstance(op, M.Actions) for m in op.menu):
        menu.append("battle")  # (an effect's march followed by a battle)
    columns = []
    for f in bundle.factions:
        for col in (w for c in f.columns for _, w in c.ways()):
            prog = library.get(col.action) if col.action not in M.COLUMN_ROUTINES else None
            columns.append(col.action if prog is None else "program")
            if prog is not None:
                parts.extend(part_ops(prog))
                values.extend(value_kinds(prog))
    return uses_of(ops, menu, columns,
                   [k for a in abilities for k, _ in table_kinds(a, None)], eops, parts,
                   values)


def effect_op_name(op) -> str:
    """An effect op's name among EFFECT_OPS: the part 'actions' (models.Actions, the
    turn step's operation) is the effect frame 'take_actions' it runs as."""
    if isinstance(op, M.DiscardDownTo):
        return "trim_zone"  # a zone down to its capacity (FR_ZONE_TRIM)
    return "take_actions" if isinstance(op, M.Actions) else op.op


def role_then(step: M.ChooseRole) -> M.ProgramStep:
    """The program a choose_role step carries out once the role is taken, as a step
    naming it (it takes no parameter)."""
    return M.ProgramStep.model_validate({"op": step.then})


def step_program(step, library: dict) -> M.Program | None:
    """The program a step runs (models.ProgramStep): the one its 'op' names, as a menu
    entry's 'action' does (None: one of the engine's steps)."""
    return library.get(step.op) if isinstance(step, M.ProgramStep) else None


def table_kinds(ab, pidx: dict[str, int] | None) -> list[tuple[str, int | None]]:
    """The core's ability kinds (ABILITY_KINDS) an ability of the content is, each with
    its value (None: ``ability_value``'s): a 'rule' is rule_ties where it rules ties
    (Law 7.2.2) and rule_with, a bitmask of its pieces, where it rules with pieces (Law
    10.2.4); a 'battle' is one kind per modifier it makes (models.Battle.modifiers), a
    'numbers' one per number it changes (models.Numbers.modifiers);
    every other ability is its own kind."""
    if isinstance(ab, (M.Battle, M.Numbers, M.Moving, M.ExclusivePlacement)):
        return [(kind, value) for kind, value in ab.modifiers()]
    if isinstance(ab, M.Trigger) and ab.cost != "none":
        return [("trigger", None), ("trigger_cost", None)]
    if isinstance(ab, M.Offer):
        return []  # a program another player runs: its instance, no ability table row
    if not isinstance(ab, M.Rule):
        return [(ab.kind, None)]
    out: list[tuple[str, int | None]] = [("rule_ties", 1)] if ab.rules_ties() else []
    if ab.with_:
        mask = sum(1 << pidx[x] for x in ab.with_) if pidx is not None else 0
        out.append(("rule_with", mask))
    if ab.tokens:
        out.append(("rule_tokens", ab.tokens))
    return out


def _scored_tracks(step, library: dict) -> list[str]:
    """The pieces whose track VP a step's program scores (a 'score' of track_vp), as the
    step binds them: each is scored again every time the step runs, an income."""
    prog = step_program(step, library)
    if prog is None:
        return []
    params = prog.bind(M.use_fields(step))
    out = []
    for part in prog.do:
        values = [part.vp] if isinstance(part, M.ScorePart) else []
        while values:
            v = values.pop()
            if isinstance(v, M.TrackVp) and isinstance(v.track_vp, M.OfSuit):
                among = v.track_vp.among
                refs = [among] if isinstance(among, str) else among
                for ref in refs:
                    name = params.get(ref[1:]) if ref.startswith("$") else ref
                    out += [name] if isinstance(name, str) else list(name or [])
            elif isinstance(v, M.TrackVp) and isinstance(v.track_vp, str):
                name = params.get(v.track_vp[1:]) if v.track_vp.startswith("$") else v.track_vp
                if isinstance(name, str):
                    out.append(name)
            elif isinstance(v, M.SumValue):
                values += v.sum
            elif isinstance(v, M.IfValue):
                values += [v.then, v.else_]
    return out


def _step_parts(prog: M.Program, step, faction: M.FactionSpec) -> list[str]:
    """The parts a step's program uses, for the partials: a draw into a zone or a count
    of a zone's cards needs the zones' family ('put' is theirs)."""
    flat = [part for _, part in M.flat_parts(prog.do)]
    out: list[str] = [part.op for part in flat]
    zone_ids = {z.id for z in faction.zones}

    def names_zone(ref) -> bool:
        if not isinstance(ref, str):
            return False
        v = getattr(step, ref[1:], None) if ref.startswith("$") else ref
        return v in zone_ids

    for part in flat:
        if isinstance(part, M.DrawPart) and part.into is not None:
            out.append("put")
        if isinstance(part, M.DiscardAllPart) and names_zone(part.source):
            out.append("put")
        if isinstance(part, M.PutAllPart):
            out.append("put")
    return out


class Layout:
    """Named offsets into one flat int64 array."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.offsets: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        self.size = 0

    def add(self, name: str, size: int) -> int:
        assert name not in self.offsets, name
        self.offsets[name] = self.size
        self.sizes[name] = size
        self.size += max(size, 0)
        return self.offsets[name]


class Names(TypedDict, total=False):
    """Display names of the dense indices, for the runtime (roles and columns per faction).

    Not total: a fresh ``Tables`` holds ``{}`` until ``build_tables`` fills in every key."""

    clearings: list[str]
    forests: list[str]             # the map's forests' ids, in its order
    factions: list[str]
    pieces: list[str]
    cards: list[str]
    items: list[str]
    roles: list[list[str]]
    columns: list[list[str]]
    suits: list[str]
    edges: list[str]
    ops: list[str]
    steps: list[str]               # each step of the flat table, by the op content names it
    frames: list[str]
    effects: list[str]
    zones: list[list[str]]
    boxes: list[list[str]]
    cycles: list[list[str]]        # per faction, its cycles' ids
    stages: list[list[list[str]]]  # per faction and cycle, the stages
    triggers: list[str]            # the triggers' ids, in the order of their index
    cost_triggers: list[str]       # the decision each trigger with a cost asks (its verb)
    hooks: list[str]               # the hooks' ids, in the order of their index
    hook_factions: list[int]       # ... and the faction each belongs to
    programs: list[tuple[int, int, str]]  # effect programs: op range, the effect/card id
    instances: list[tuple[str, int, int]]  # program uses: program, faction, limit slot
    events: list[str]              # EVENTS: what the core reports, by code
    score_why: list[str]           # SCORE_WHY: why VP were scored, by code
    verbs: dict[str, str]          # the content's own verbs (action types): their shapes
    verb_stages: dict[str, list[str]]  # a stage verb (shape stage): its cycle's stages


@dataclass
class Tables:
    """What the template needs: constants, the static table, names for the runtime."""

    consts: dict[str, int] = field(default_factory=dict)
    table: list[int] = field(default_factory=list)
    table_layout: Layout = field(default_factory=lambda: Layout("T_"))
    state_layout: Layout = field(default_factory=lambda: Layout("S_"))
    actions: Layout = field(default_factory=lambda: Layout("A_"))
    names: Names = field(default_factory=Names)
    bundle_hash: str = ""
    uses: Uses = EVERYTHING  # what the core emits: the bundle's own, from build_tables
    observation: list[ObsField] = field(default_factory=list)  # OBSERVATION placed
    programs: list = field(default_factory=list)  # program instances (generator/programs.py)
    effect_parts: list = field(default_factory=list)  # effect programs' parts, compiled
    menu_where: str = ""  # the methods of menu entries with a cycle's suit or a cost
    hits_ifs: list = field(default_factory=list)  # extra hits under a condition: (code, n)
    first_hits: list = field(default_factory=list)  # the conditions of 'taking' (its
    #                                                 'ignore_first'), compiled
    per_piece: bool = False  # a trigger runs for each piece removed (Law 15.2.5)
    effect_whens: list = field(default_factory=list)  # effects' 'when', compiled
    item_triggers: bool = False  # a trigger reacts to an item crafted (Murine Broker)
    npool: int = 0  # pools of pieces held on cards (models.CardBox)
    loose: bool = False  # removed pieces not yet taken are counted (S_LOOSE)
    offers: list = field(default_factory=list)  # (program instance, holder faction) each

    def put(self, name: str, values: list[int]) -> None:
        # Each table starts on a cache line (8 int64s): a table's size elsewhere does not
        # move the others across lines (what the core reads together stays together).
        pad = -len(self.table) % 8
        if pad:
            self.table_layout.size += pad
            self.table.extend([0] * pad)
        off = self.table_layout.add(name, len(values))
        assert off == len(self.table)
        self.table.extend(int(v) for v in values)



def _craft_tables(t: Tables, factions: list, crafting: list[list[int]],
                  pidx: dict[str, int]) -> None:
    """The tables of several crafting pieces (models.CraftingPieces): each faction's
    bitmask, the cycle whose stage's suit a piece's printed suit must be, and the
    bitmask of the pieces that craft on each of its stages."""
    t.put("FACTION_CRAFT_MASK", [sum(1 << x for x in cps) for cps in crafting])
    craft_cycle: list[int] = []
    by_stage: list[int] = []  # [F][16]: the pieces that craft while the marker is there
    for f in factions:
        cp = f.crafting_piece
        k = [c.id for c in f.cycles].index(cp.suit_of) \
            if isinstance(cp, M.CraftingPieces) and cp.suit_of else -1
        craft_cycle.append(k)
        stages = list(f.cycles[k].stages) if k >= 0 else []
        by_stage += [sum(1 << pidx[x] for x in M.crafting_pieces(f)
                         if f.pieces[x].suit == stages[j]) if j < len(stages) else 0
                     for j in range(16)]
    t.put("FACTION_CRAFT_CYCLE", craft_cycle)
    t.put("FACTION_CRAFT_BY_STAGE", by_stage)


def build_tables(bundle: Bundle, observation: tuple[Obs, ...] = OBSERVATION) -> Tables:
    """The tables of a bundle's core; ``observation`` replaces OBSERVATION (for tests of
    field kinds the base table does not use)."""
    uses = content_uses(bundle)
    links = HOLDER_LINKS.set(bool(HOLDER_LINK_ABILITIES & set(uses.abilities)))
    taken = TAKEN_SLOTS.set({})
    try:
        return _build_tables(bundle, observation, uses)
    finally:
        HOLDER_LINKS.reset(links)
        TAKEN_SLOTS.reset(taken)


HOLDER_LINK_ABILITIES = frozenset({"rivers_are_paths", "crafting_adjacent"})
"""The 'moving' abilities that link clearings for their holder (models.Moving): where a
bundle has one, every reading of adjacency is the player's (the core's 'adjacent')."""


def _build_tables(bundle: Bundle, observation: tuple[Obs, ...], uses) -> Tables:
    t = Tables(bundle_hash=bundle.hash, uses=uses)
    m = bundle.map
    c_ids = sorted(c.id for c in m.clearings)
    cidx = {cid: i for i, cid in enumerate(c_ids)}
    clearings = {c.id: c for c in m.clearings}
    C = len(c_ids)
    factions = list(bundle.factions)
    F = len(factions)
    P = F  # every seat holds a different faction

    # ---- pieces (global dense index over all factions)
    pieces: list[tuple[M.FactionSpec, str, M.Piece]] = []
    for f in factions:
        for name, p in f.pieces.items():
            pieces.append((f, name, p))
    pidx = {name: i for i, (_, name, _) in enumerate(pieces)}
    NP = len(pieces)
    max_track = max([len(p.track.vp) if p.track else 0 for _, _, p in pieces] +
                    [len(p.track.cost) if p.track else 0 for _, _, p in pieces] + [1])
    max_draw_at = max([len(p.track.draw_at) if p.track else 0 for _, _, p in pieces] + [1])
    W = max(p.count for _, _, p in pieces if p.kind == "warrior")
    Z = max([len(f.zones) for f in factions] + [1])
    B = max([len(f.boxes) for f in factions] + [1])

    # ---- card definitions: deck cards, then faction cards
    defs: list[dict] = []
    for c in bundle.deck.cards:
        defs.append({"id": c.id, "suit": SUIT[c.suit], "kind": CARD_KINDS.index(c.kind),
                     "item": -1, "vp": c.vp, "count": c.count, "cost": c.cost, "owner": -1,
                     "card": c})
    items = list(bundle.deck.items)
    iidx = {it: i for i, it in enumerate(items)}
    for d in defs:
        if d["card"].item:
            d["item"] = iidx[d["card"].item]
    for fi, f in enumerate(factions):
        for fc in f.cards:
            defs.append({"id": fc.id, "suit": SUIT[fc.suit],
                         "kind": CARD_KINDS.index("faction"), "item": -1, "vp": 0,
                         "count": fc.count, "cost": [], "owner": fi, "card": None})
    K = len(defs)
    phys: list[int] = []
    for di, d in enumerate(defs):
        phys.extend([di] * d["count"])
    N = len(phys)
    I = len(items)

    # ---- columns and roles
    L = max([len(f.columns) for f in factions] + [1])
    R = max([len(f.roles) for f in factions] + [1])

    # ---- directed edges (paths both ways), in a stable order; where content treats
    # rivers as paths for someone (models.Moving), the rivers that are not paths too,
    # after them (a bundle without keeps its edges, and its action numbers, as before)
    edges: list[tuple[int, int]] = []
    for a, b in sorted(m.paths):
        edges.append((cidx[a], cidx[b]))
        edges.append((cidx[b], cidx[a]))
    edges.sort()
    path_edges = set(edges)
    river_edges = {(cidx[a], cidx[b]) for a, b in m.rivers} | \
        {(cidx[b], cidx[a]) for a, b in m.rivers}
    if "rivers_are_paths" in t.uses.abilities:
        edges += sorted(river_edges - path_edges)
    if "crafting_adjacent" in t.uses.abilities:
        # (any two clearings may hold someone's crafting pieces: every pair, after them)
        edges += sorted({(a, b) for a in range(C) for b in range(C) if a != b} - set(edges))
    E = len(edges)

    consts = t.consts
    consts.update(C=C, F=F, P=P, NP=NP, K=K, N=N, I=I, L=L, R=R, E=E, W=W, Z=Z, B=B,
                  MAX_TRACK=max_track, MAX_DRAW_AT=max_draw_at, MAX_COST=MAX_COST,
                  FOX=0, RABBIT=1, MOUSE=2, BIRD=3, ANY=ANY,
                  PK_WARRIOR=0, PK_BUILDING=1, PK_TOKEN=2,
                  COUNT_ANY=COUNT_ANY, COUNT_BOX=COUNT_BOX, ANY_NUMBER=ANY_NUMBER)
    # (the ability kinds the tables have rows for: late ones only up to the last one
    # used, so a bundle's rows are as wide as before later kinds were added)
    late = [ABILITY_KINDS.index(k) for k in t.uses.abilities
            if k in ABILITY_KINDS[LATE_ABILITY_KINDS:]]
    kinds = ABILITY_KINDS[:max(late) + 1] if late else ABILITY_KINDS[:LATE_ABILITY_KINDS]
    for prefix, codes in (("CK", CARD_KINDS), ("OP", STEP_OPS), ("MA", MENU_ACTIONS),
                          ("CA", COLUMN_ACTIONS), ("AB", kinds)):
        for i, code in enumerate(codes):
            consts[f"{prefix}_{code.upper()}"] = i
    # Card locations (CARD_LOC values); hands, play areas and Decree columns are ranges.
    consts.update(LOC_DECK=0, LOC_DISCARD=1, LOC_OUT=2,  # out: removed from the game
                  LOC_RESERVE=3,                         # faction cards not in use
                  LOC_AVAILABLE=4,                       # discarded dominance (Law 3.3.3)
                  LOC_HAND=8, LOC_PLAY=8 + P,            # + seat
                  LOC_COLUMN=8 + 2 * P,                  # + seat * L + column
                  LOC_ZONE=8 + 2 * P + P * L)            # + seat * Z + zone
    consts["NLOC"] = 8 + 2 * P + P * L + P * Z  # one past the last location: new ones go below
    # The face-down places below the zones (Law 1.2): the deck and every hand.  Zones are
    # face down or up by their faction's content (ZONE_FACE_DOWN).
    t.put("LOC_HIDDEN", [int(loc == consts["LOC_DECK"] or
                             consts["LOC_HAND"] <= loc < consts["LOC_HAND"] + P)
                         for loc in range(consts["LOC_ZONE"])])
    for i, code in enumerate(FRAME_KINDS):
        consts[f"FR_{code.upper()}"] = i + 1
    for i, code in enumerate(EVENTS):
        consts[f"E_{code.upper()}"] = i
    for i, code in enumerate(SCORE_WHY):
        consts[f"WHY_{code.upper()}"] = i
    consts["EVENT_WIDTH"] = EVENT_WIDTH
    consts["EVENT_CAP"] = 4096  # records kept between two take_events (more are counted)

    # ---- map tables
    t.put("CLEARING_SUIT", [SUIT[clearings[c].suit] for c in c_ids])
    t.put("CLEARING_SLOTS", [clearings[c].slots for c in c_ids])
    t.put("CLEARING_RUIN", [int(clearings[c].ruin) for c in c_ids])
    t.put("CLEARING_CORNER", [int(clearings[c].corner) for c in c_ids])
    if bundle.reads_edge:
        # (only where content reads it: the tables of a bundle that does not are as
        # they were before maps marked their edge)
        t.put("CLEARING_EDGE", [int(clearings[c].edge) for c in c_ids])
    if M.reads_river((bundle.library, bundle.deck, bundle.factions)):
        # (only where content reads it: the clearings a river touches, Law 2.3)
        touched = {x for pair in m.rivers for x in pair}
        t.put("CLEARING_RIVER", [int(c in touched) for c in c_ids])
    opp = [-1] * C
    for a, b in m.opposite_corners:
        opp[cidx[a]] = cidx[b]
        opp[cidx[b]] = cidx[a]
    t.put("OPPOSITE", opp)
    adj = [0] * (C * C)
    for a, b in path_edges:
        adj[a * C + b] = 1
    t.put("ADJ", adj)
    t.put("EDGE_FROM", [a for a, _ in edges])
    t.put("EDGE_TO", [b for _, b in edges])
    if {"rivers_are_paths", "river_move_ignores_rule", "crafting_adjacent"} & \
            set(t.uses.abilities):
        # (only where content reads them: Law 2.3's rivers, for moves along them)
        t.put("EDGE_PATH", [int(e in path_edges) for e in edges])
        t.put("EDGE_RIVER", [int(e in river_edges) for e in edges])
    if "rivers_are_paths" in t.uses.abilities:
        # the clearings a river joins: adjacent for the holder of 'rivers_are_paths'
        # in every rule that reads adjacency (Law 2.3), not only its moves
        river_adj = [0] * (C * C)
        for a, b in river_edges:
            river_adj[a * C + b] = 1
        t.put("RIVER_ADJ", river_adj)
    # Forests (Law 2.4): the clearings each touches are FOREST_LIST[FOREST_RANGE[f] ..
    # FOREST_RANGE[f + 1] - 1].
    forest_range, forest_list = [0], []
    for fo in m.forests:
        forest_list += sorted({cidx[c] for c in fo.clearings})
        forest_range.append(len(forest_list))
    t.put("FOREST_RANGE", forest_range)
    t.put("FOREST_LIST", forest_list or [0])
    consts["NFOREST"] = len(m.forests)

    # ---- pieces
    t.put("PIECE_OWNER", [factions.index(f) for f, _, _ in pieces])
    t.put("PIECE_KIND", [PIECE_KINDS.index(p.kind) for _, _, p in pieces])
    t.put("PIECE_COUNT", [p.count for _, _, p in pieces])
    t.put("PIECE_PERMANENT", [int(p.permanent_removal) for _, _, p in pieces])
    t.put("PIECE_SUIT", [SUIT[p.suit] if p.suit else -1 for _, _, p in pieces])
    t.put("PIECE_PER_CLEARING", [p.per_clearing or 0 for _, _, p in pieces])  # 0: no limit
    if any(p.value is not None or p.reveals for _, _, p in pieces):
        # Numbers printed on pieces, and what a face-down piece may turn out to be (a
        # bitmask of pieces: Law 15.2.1's relics); only where some piece has them.
        t.put("PIECE_VALUE", [p.value or 0 for _, _, p in pieces])
        t.put("PIECE_REVEALS", [sum(1 << pidx[x] for x in p.reveals) for _, _, p in pieces])
    if any(p.carries for _, _, p in pieces):
        # The tokens each warrior may carry on a move (a bitmask, Law 15.2.4); only where
        # some warrior carries.
        t.put("PIECE_CARRIES", [sum(1 << pidx[x] for x in p.carries) for _, _, p in pieces])
    if any(p.faces for _, _, p in pieces):
        # A token laid face down whose face its owner chose (models.Piece.faces, Law
        # 13.2.2): each such token's faces (a bitmask), and each face's token (-1 for
        # a piece that is no face); only where some piece has them.
        t.put("PIECE_FACES", [sum(1 << pidx[x] for x in p.faces) for _, _, p in pieces])
        face_of = [-1] * len(pieces)
        for i, (_, _, p) in enumerate(pieces):
            for x in p.faces:
                face_of[pidx[x]] = i
        t.put("PIECE_FACE_DOWN", face_of)
        # A face whose removal its owner's trigger acts on (Law 13.7, the raid: "Whenever
        # a raid token is removed (face up or down)"): removed face down, it is shown.
        told = [0] * len(pieces)
        for f in factions:
            for a in f.abilities:
                if isinstance(a, M.Trigger) and a.on == "pieces_removed" and \
                        a.by == "any" and a.in_battle is None and a.cost == "none":
                    # (one that reacts to every removal of it: validation, FACES-TRIGGER)
                    for x in a.pieces:
                        if x in f.pieces and face_of[pidx[x]] >= 0:
                            told[pidx[x]] = 1
        t.put("PIECE_FACE_TOLD", told)
    if any(p.other_face for _, _, p in pieces):
        # A two-faced building's other face (Law 15.2.2), -1 for none; only where some
        # piece has one.
        t.put("PIECE_FACE", [pidx[p.other_face] if p.other_face else -1
                             for _, _, p in pieces])
    vp, cost, draw = [], [], []
    for _, _, p in pieces:
        tr = p.track or M.Track()
        vp += list(tr.vp) + [tr.vp[-1] if tr.vp else 0] * (max_track - len(tr.vp))
        cost += list(tr.cost) + [0] * (max_track - len(tr.cost))
        draw += list(tr.draw_at) + [1 << 20] * (max_draw_at - len(tr.draw_at))
    t.put("TRACK_VP", vp)
    t.put("TRACK_COST", cost)
    t.put("TRACK_DRAW_AT", draw)
    # Pieces whose track a step's program scores again and again (score_track's: an
    # income, not a one-off on placement), and the hand a faction keeps at its turn's end (its
    # discard_down_to limit): what the agents' evaluation reads (core/agent.py.j2).
    def steps_of(f: M.FactionSpec) -> list:
        return [st for steps in (f.setup, f.turn.birdsong, f.turn.daylight, f.turn.evening,
                                 *f.hooks.values()) for st in steps]

    income = {pidx[pid] for f in factions for st in steps_of(f)
              for pid in _scored_tracks(st, bundle.programs) if pid in f.pieces}
    t.put("PIECE_INCOME", [int(i in income) for i in range(NP)])
    t.put("FACTION_HAND_LIMIT", [min([st.limit for st in steps_of(f)
                                      if isinstance(st, M.DiscardDownTo)] or [1 << 20])
                                 for f in factions])
    t.put("FACTION_WARRIOR", [pidx[next(n for n, p in f.pieces.items() if p.kind == "warrior")]
                              for f in factions])
    crafting = [[pidx[x] for x in M.crafting_pieces(f)] for f in factions]
    t.put("FACTION_CRAFTING", [cps[0] if cps else -1 for cps in crafting])
    if "crafting_adjacent" in t.uses.abilities:
        # Every crafting piece of each faction (a bitmask): 'crafting_adjacent' clearings.
        t.put("FACTION_CRAFT_PIECES", [sum(1 << x for x in cps) for cps in crafting])
    # Several crafting pieces (Law 10.2.1): their bitmask, and the cycle whose stage's
    # suit a piece's printed suit must be (-1: any); the core reads them only then.
    consts["CRAFT_MULTI"] = int(any(isinstance(f.crafting_piece, M.CraftingPieces)
                                    for f in factions))
    if consts["CRAFT_MULTI"]:
        _craft_tables(t, factions, crafting, pidx)
    t.put("FACTION_FIRST_PIECE", [min(pidx[n] for n in f.pieces) for f in factions])
    t.put("FACTION_END_PIECE", [max(pidx[n] for n in f.pieces) + 1 for f in factions])

    # ---- zones (card piles apart from the hand) and boxes (warriors off the map)
    zone_cap, zone_lift, box_piece = [], [], []
    for f in factions:
        for zi in range(Z):
            z = f.zones[zi] if zi < len(f.zones) else None
            zone_cap.append(-1 if z is None or z.capacity is None else z.capacity)
            zone_lift.append(sum(1 << pidx[b] for b in z.unlimited_while) if z else 0)
        for bi in range(B):
            # (-1: no such box, or a tally of pieces taken out of play, models.Box.piece)
            box_piece.append(pidx[f.boxes[bi].piece] if bi < len(f.boxes) and
                             not f.boxes[bi].tally else -1)
    t.put("ZONE_CAP", zone_cap)        # [F][Z]: -1 no limit
    # [F][Z]: 1 when only the owner sees the zone's cards (hidden information, Law 1.2)
    t.put("ZONE_FACE_DOWN", [int(f.zones[zi].face_down) if zi < len(f.zones) else 0
                             for f in factions for zi in range(Z)])
    # The pile that takes every card spent or discarded (Law 10.2.6: at most one a
    # bundle, validated): its faction and zone, -1 without.
    catch = [(fi, zi) for fi, f in enumerate(factions) for zi, z in enumerate(f.zones)
             if z.takes_discards]
    consts["CATCH_F"], consts["CATCH_Z"] = catch[0] if catch else (-1, -1)
    t.put("ZONE_LIFT", zone_lift)      # [F][Z]: buildings that lift the limit (bitmask)
    t.put("BOX_PIECE", box_piece)      # [F][B]: -1 no such box
    t.put("FACTION_NZONES", [len(f.zones) for f in factions])
    t.put("FACTION_NBOXES", [len(f.boxes) for f in factions])

    # ---- cards
    t.put("DEF_SUIT", [d["suit"] for d in defs])
    t.put("DEF_KIND", [d["kind"] for d in defs])
    t.put("DEF_ITEM", [d["item"] for d in defs])
    t.put("DEF_VP", [d["vp"] for d in defs])
    t.put("DEF_OWNER", [d["owner"] for d in defs])
    cost_tab = []
    craftable = []
    for d in defs:
        counts = [0, 0, 0, 0]
        for icon in d["cost"]:
            counts[ANY if icon == "any" else SUIT[icon]] += 1
        cost_tab += counts
        # A card is craftable when what it does is data the engine runs: an item, a
        # persistent card granting abilities, an immediate card with a program (Law 4.1).
        card = d["card"]
        kind = CARD_KINDS[d["kind"]]
        craftable.append(int(kind == "item" or (kind == "persistent" and bool(card.abilities))
                             or (kind == "immediate" and bool(card.on_craft))))
    t.put("DEF_COST", cost_tab)  # [K][4]: fox, rabbit, mouse, any
    t.put("DEF_CRAFTABLE", craftable)
    # A craftable card that costs nothing: the craft step is asked with no crafting piece.
    consts["FREE_CRAFT"] = int(any(c and not d["cost"]
                                   for c, d in zip(craftable, defs, strict=True)))
    t.put("CARD_DEF", phys)
    # Pieces held on cards (models.CardBox): a pool for each copy of a card with a box
    # (a copy in one play area, another in another), CARD_POOL[card] its index, -1 none;
    # only in a bundle with such a card.
    pools = [defs[di]["card"] is not None and defs[di]["card"].box is not None
             for di in phys]
    t.npool = sum(pools)
    if t.npool:
        t.put("CARD_POOL", [sum(pools[:ci]) if x else -1 for ci, x in enumerate(pools)])
        consts["NPOOL"] = t.npool
    # The copies of def d are the physical cards DEF_FIRST[d] .. DEF_FIRST[d + 1] - 1.
    t.put("DEF_FIRST", [phys.index(di) for di in range(K)] + [N])
    t.put("ITEM_SUPPLY", [bundle.deck.items[i] for i in items])

    # ---- abilities: value per faction and kind, and which roles switch them on
    NAB = len(kinds)

    def ability_value(ab) -> int:
        """The one number a static ability kind carries (a VP, a count, a piece ...)."""
        if ab.kind == "exclusive_placement":
            return pidx.get(ab.token, -1)
        return 1

    def role_mask(f: M.FactionSpec, ab) -> int:
        """Roles under which a faction ability is on (bit R: no role held)."""
        granted_by = [ri for ri, r in enumerate(f.roles) if ab.id in r.abilities]
        if granted_by:
            return sum(1 << ri for ri in granted_by)
        mask = (1 << (R + 1)) - 1
        for ri, r in enumerate(f.roles):
            if ab.id in r.suppress:
                mask &= ~(1 << ri)
        return mask

    def hits_if(ab: Any, holder: M.FactionSpec | None, kind: str) -> int:
        """The value of extra hits under a condition (Law 14.7.8, 13.2.5): 1 + the index
        of the compiled condition (battle_hits_holds_<k>), whose hits t.hits_ifs keeps."""
        assert isinstance(ab, M.Battle)
        side = ab.attacking if kind == "attack_hits_if" else ab.defending
        assert side is not None
        k = len(t.hits_ifs)
        t.hits_ifs.append((compile_battle_hits_condition(side.holds, k, ab.id, holder, pidx),
                           side.extra_hits))
        return k + 1

    def first_hit(ab: Any, holder: M.FactionSpec | None) -> int:
        """The value of an ability that ignores the first hit (Law 15.2.4): 1 + the index
        of its condition, compiled (first_hit_holds_<k>)."""
        assert isinstance(ab, M.Battle) and ab.taking is not None
        k = len(t.first_hits)
        t.first_hits.append(compile_hit_condition(ab.taking.holds, k, ab.id, holder, pidx))
        return k + 1

    # A value per role held (bit R: none), so that two abilities of one kind under
    # different roles keep their own numbers (a faction's 'numbers' and a leader's);
    # where two are on under one role, the later in the faction's list says it.
    ab_value = [0] * (F * NAB * (R + 1))
    ab_roles = [0] * (F * NAB)  # bitmask over roles; bit R = no role held
    for fi, f in enumerate(factions):
        for ab in f.abilities:
            if isinstance(ab, (M.Effect, M.Trigger)):
                continue  # usable effects and triggers have tables of their own
            mask = role_mask(f, ab)
            for kind, given in table_kinds(ab, pidx):
                value = first_hit(ab, f) if kind == "ignore_first_hit" else \
                    hits_if(ab, f, kind) if kind.endswith("_hits_if") else given
                ak = ABILITY_KINDS.index(kind)
                for bit in range(R + 1):
                    if (mask >> bit) & 1:
                        ab_value[(fi * NAB + ak) * (R + 1) + bit] = \
                            ability_value(ab) if value is None else value
                ab_roles[fi * NAB + ak] |= mask
    t.put("AB_VALUE", ab_value)
    t.put("AB_ROLES", ab_roles)
    # Static abilities granted by cards lying in a play area (persistent cards, Law 4.1.3).
    card_ab_has = [0] * (K * NAB)
    card_ab_value = [0] * (K * NAB)
    kind_cards = [0] * NAB  # how many card defs grant each kind: 0 skips the play-area look
    for di, d in enumerate(defs):
        for ab in (d["card"].abilities if d["card"] is not None else []):
            if isinstance(ab, (M.Effect, M.Trigger)):
                continue
            for kind, given in table_kinds(ab, pidx):
                value = first_hit(ab, None) if kind == "ignore_first_hit" else \
                    hits_if(ab, None, kind) if kind.endswith("_hits_if") else given
                ak = ABILITY_KINDS.index(kind)
                card_ab_has[di * NAB + ak] = 1
                card_ab_value[di * NAB + ak] = ability_value(ab) if value is None else value
                kind_cards[ak] += 1
    t.put("CARD_AB_HAS", card_ab_has)
    t.put("CARD_AB_VALUE", card_ab_value)
    t.put("KIND_CARDS", kind_cards)

    # ---- columns and roles
    # A column's own action is its first way (COL_ACTION, COL_PROG); its 'or' ways, where
    # a bundle has any, are CW more a column (COL_WAY_ACTION, COL_WAY_PROG; -1: none).
    CW = max([len(c.or_) for f in factions for c in f.columns] + [0])
    col_action = [-1] * (F * L)
    col_prog = [-1] * (F * L)  # a program's column: its instance, compiled below
    way_action = [-1] * (F * L * CW)
    way_prog = [-1] * (F * L * CW)
    column_uses: list[tuple[list[int], int, M.ColumnWay, str, int]] = []
    for fi, f in enumerate(factions):
        for li, column in enumerate(f.columns):
            for at, way in column.ways():
                w = at[1] if at else -1
                actions, progs = (col_action, col_prog) if w < 0 else (way_action, way_prog)
                slot = fi * L + li if w < 0 else (fi * L + li) * CW + w
                if way.action in M.COLUMN_ROUTINES:
                    actions[slot] = COLUMN_ACTIONS.index(way.action)
                else:
                    actions[slot] = COLUMN_ACTIONS.index("program")
                    column_uses.append((progs, slot, way, column.id, fi))
    t.put("COL_ACTION", col_action)
    if CW:
        consts["CW"] = CW
        t.put("COL_WAY_ACTION", way_action)
    t.put("FACTION_NCOLS", [len(f.columns) for f in factions])
    t.put("FACTION_NROLES", [len(f.roles) for f in factions])
    role_tuck = [0] * (F * R)  # bitmask of columns
    for fi, f in enumerate(factions):
        colids = [c.id for c in f.columns]
        for ri, r in enumerate(f.roles):
            role_tuck[fi * R + ri] = sum(1 << colids.index(c) for c in r.tuck)
    t.put("ROLE_TUCK", role_tuck)

    # ---- programs: every step of every faction in one flat table
    # ---- cycles: a marker per seat and cycle (models.Cycle), stages by index
    NCYC = max([len(f.cycles) for f in factions] + [1])
    cycle_len = [0] * (F * NCYC)
    cycle_start = [0] * (F * NCYC)
    for fi, f in enumerate(factions):
        for k, cy in enumerate(f.cycles):
            cycle_len[fi * NCYC + k] = len(cy.stages)
            cycle_start[fi * NCYC + k] = cy.stages.index(cy.start) if cy.start else 0
    t.put("CYCLE_LEN", cycle_len)
    t.put("CYCLE_START", cycle_start)
    stage_hook: list[int] = []  # per run_stage step, one hook (or -1) per stage

    ops: list[int] = []
    pa: list[int] = []
    pb: list[int] = []
    pc: list[int] = []
    pd: list[int] = []
    menu_kind: list[int] = []
    menu_a: list[int] = []
    menu_b: list[int] = []
    menu_c: list[int] = []
    menu_d: list[int] = []
    menu_mask: list[int] = []
    hook_names: list[tuple[int, str]] = []
    for fi, f in enumerate(factions):
        for h in f.hooks:
            hook_names.append((fi, h))
    library = bundle.programs

    def reads_hand(entry) -> bool:
        """Whether a menu entry's options depend on cards others may not see: a card
        chosen from the hand, or cards spent from the hand or a zone (a 'spend': what
        the hand or a face-down zone holds is its owner's to know, Law 1.2)."""
        prog = library.get(entry.action)
        return prog is not None and ("card" in shape_of(prog) or
                                     any(isinstance(x, M.SpendPart) for x in prog.do))

    def limit_slot(prog: M.Program) -> int:
        """A program with a limit ('once_per_turn'): its instance's slot in S_LIMITS, the
        next one; -1 without."""
        return sum(1 for x in t.programs if x.limit_slot >= 0) if prog.once_per_turn else -1

    def pay_slot(prog: M.Program, who: int) -> int:
        """A program with a 'pay': how many of faction who's instances before it pay (the
        FR_PAY frame's field: 0 for a faction's first, as saves from the build routine
        have it); -1 without."""
        if not any(isinstance(part, M.PayPart) for part in prog.do):
            return -1
        return sum(1 for x in t.programs if x.faction == who and x.pay_slot >= 0)

    where: list[tuple[int, int, M.FactionSpec, object]] = []  # with suit_of, cost, when
    then_battles: list[tuple[int, int]] = []  # march entries followed by a battle, 1: must
    shifting: list[bool] = []  # add_to_columns steps: whether each may shift a card
    capping: list[bool] = []  # ... whether each caps all columns' cards or shifts
    optional_columns: list[bool] = []  # resolve_columns steps: whether each has no hook

    def emit_menu(menu: list, fi: int = -1) -> tuple[int, int]:
        """Append menu entries to the menu tables: (first entry, how many); fi is the
        faction whose menu it is (-1: a card's menu, any faction's)."""
        start = len(menu_kind)
        for mn in menu:
            ma = mb = mc = md = mmask = 0
            prog = library.get(mn.action)
            if prog is not None:
                # A program: compiled for this use, its fields binding its parameters; in
                # a card's menu, once for each faction (MENU_B 1: the actor's is run).
                # MENU_C 1: its options depend on the hand (public facts: take_actions).
                first = len(t.programs)
                for who in ([fi] if fi >= 0 else range(F)):
                    t.programs.append(compile_use(mn, prog, len(t.programs),
                                                  limit_slot(prog), who,
                                                  bundle, pidx, pieces, pay_slot(prog, who)))
                menu_kind.append(MENU_ACTIONS.index("program"))
                for col, v in ((menu_a, first), (menu_b, int(fi < 0)),
                               (menu_c, int(reads_hand(mn))),
                               (menu_d, 0), (menu_mask, 0)):
                    col.append(v)
                continue
            if isinstance(mn, M.ProgramEntry):
                raise ProgramError(f"menu entry {mn.action!r}: no library program of that "
                                   "name (validation reports it: PROGRAM-REF)")
            if isinstance(mn, M.MarchAction):
                ma = mn.moves
                if mn.then_battle:
                    # The battle it may be followed by: an entry of its own past every
                    # menu (MENU_C: its index + 1), in the clearing its frame names.
                    then_battles.append((len(menu_kind), int(mn.then_battle == "must")))
            if isinstance(mn, (M.BattleAction, M.MarchAction)) and \
                    (mn.suit_of is not None or mn.cost is not None or mn.when is not None):
                if fi < 0:
                    raise ProgramError(f"menu entry {mn.action!r}: a 'suit_of', 'cost' or "
                                       "'when' in a card's menu (validation reports it: "
                                       "EFFECT-ACTIONS)")
                where.append((len(menu_kind), fi, factions[fi], mn))
            menu_kind.append(MENU_ACTIONS.index(mn.action))
            menu_a.append(ma)
            menu_b.append(mb)
            menu_c.append(mc)
            menu_d.append(md)
            menu_mask.append(mmask)
        return start, len(menu)

    # (step, faction, program, step)
    step_uses: list[tuple[int, int, M.Program, M.ProgramStep]] = []
    role_uses: list[tuple[int, int, M.Program, M.ProgramStep]] = []  # choose_role's then
    step_names: list[str] = []  # each step's op as its content names it (a program's name)

    def emit(fi: int, steps: list) -> tuple[int, int]:
        f = factions[fi]
        boxes = [x.id for x in f.boxes]
        start = len(ops)
        for s in steps:
            a = b = c = d = 0
            step_names.append(s.op)
            step_prog = step_program(s, library)
            if step_prog is None and isinstance(s, M.ProgramStep):
                raise ProgramError(f"step {s.op}: no program of that name (PROGRAM-REF)")
            if step_prog is not None:
                # A step that runs a program: its instance (STEP_A) is compiled once every
                # menu's are, so theirs keep their numbers.
                step_uses.append((len(ops), fi, step_prog, s))
                ops.append(STEP_OPS.index("program"))
                for col in (pa, pb, pc, pd):
                    col.append(0)
                continue
            if isinstance(s, M.PlaceAtBuildings):
                a, b = pidx[s.piece], pidx[s.building]
            elif isinstance(s, M.Actions):
                if s.count is None:
                    a = COUNT_ANY
                elif isinstance(s.count, M.FromBox):
                    a = COUNT_BOX - boxes.index(s.count.box)
                else:
                    a = s.count
                b = SUIT[s.extra_action_suit] if s.extra_action_suit else -1
                c, d = emit_menu(s.menu, fi)
            elif isinstance(s, M.DiscardDownTo):
                a = s.limit
            elif isinstance(s, M.AddToColumns):
                # (any number, no limit: ANY_NUMBER; no cap on all columns: 0)
                a = s.min
                b = ANY_NUMBER if s.max is None else s.max
                c = ANY_NUMBER if s.max_bird is None else s.max_bird
                d = (s.max_total or 0) + (COLUMNS_SHIFT if s.shift else 0)
                shifting.append(s.shift)
                capping.append(s.max_total is not None or s.shift)
            elif isinstance(s, M.ResolveColumns):
                # (-1: no hook, the cards are optional, Law 15.5.2)
                a = -1 if s.on_fail is None else hook_names.index((fi, s.on_fail))
                optional_columns.append(s.on_fail is None)
            elif isinstance(s, M.ChooseRole):
                # (STEP_A: the instance of its 'then', compiled after every other
                # program so theirs keep their numbers; -1: none)
                a = -1
                if s.then is not None:
                    then = library.get(s.then)
                    if then is None:
                        raise ProgramError(f"choose_role then {s.then!r}: no program of "
                                           "that name (PROGRAM-REF)")
                    role_uses.append((len(ops), fi, then, role_then(s)))
            elif isinstance(s, M.SetupBuildingsNearHome):
                d = sum(1 << pidx[x] for x in s.buildings)
            elif isinstance(s, M.RunStage):
                cyc = [cy.id for cy in factions[fi].cycles]
                a = cyc.index(s.cycle)
                c = len(stage_hook)
                stage_hook.extend(hook_names.index((fi, s.hooks[x])) if x in s.hooks
                                  else -1 for x in factions[fi].cycles[a].stages)
            ops.append(STEP_OPS.index(s.op))
            for col, v in ((pa, a), (pb, b), (pc, c), (pd, d)):
                col.append(v)
        return start, len(ops)

    setup_r, phase_r = [], []
    for fi, f in enumerate(factions):
        setup_r.append(emit(fi, f.setup))
        for ph in (f.turn.birdsong, f.turn.daylight, f.turn.evening):
            phase_r.append(emit(fi, ph))
    hook_r = []
    for fi, h in hook_names:
        hook_r.append(emit(fi, factions[fi].hooks[h]))
    for st, fi, prog, s in step_uses:
        pa[st] = len(t.programs)
        t.programs.append(compile_step_use(s, prog, len(t.programs), fi, bundle, pidx, pieces))
        pb[st] = int(bool(t.programs[-1].gen))  # a step that chooses: a decision step
        pc[st] = int(t.programs[-1].shape in ("card", "clearing_card"))  # of a hand card
    if any(isinstance(a, M.Effect) and a.timing == "evening_draw"
           for x in (*factions, *bundle.deck.cards) for a in x.abilities):
        # The steps that draw cards into the hand (a program's 'draw', choosing nothing):
        # an 'evening_draw' effect is offered instead of their draw.
        # (only a step that does nothing else: one that also scores or discards is not
        # passed for a draw replaced)
        draws = [0] * len(ops)
        for st, _fi, prog, _s in step_uses:
            draws[st] = int(not pb[st] and all(
                isinstance(x, M.DrawPart) and x.into is None and x.who == "self"
                for x in prog.do))
        t.put("STEP_DRAWS", draws or [0])
    # The columns' programs (the Decree, Law 7.5.2): after the steps', so theirs keep
    # their numbers.
    for progs, slot, way, column_id, fi in column_uses:
        col_program = library.get(way.action)
        if col_program is None:
            raise ProgramError(f"column {column_id}: no program {way.action!r} "
                               "(PROGRAM-REF)")
        progs[slot] = len(t.programs)
        t.programs.append(compile_column_use(way, col_program, len(t.programs), fi,
                                             bundle, pidx, pieces))
    for st, fi, prog, s in role_uses:
        pa[st] = len(t.programs)
        t.programs.append(compile_step_use(s, prog, len(t.programs), fi, bundle, pidx, pieces))
        if t.programs[-1].gen:
            raise ProgramError(f"choose_role then {s.op!r}: the program chooses "
                               "(PROGRAM-USE)")
    # Offers (models.Offer): each one's program, compiled for its holder's faction (its
    # names are the holder's pieces; the actor is the taker), after every other program
    # so theirs keep their numbers.
    offer_i: list[int] = []
    offer_f: list[int] = []
    for fi, f in enumerate(factions):
        for ab in f.abilities:
            if not isinstance(ab, M.Offer):
                continue
            prog = library.get(ab.use.action)
            if prog is None:
                raise ProgramError(f"offer {ab.id}: no program {ab.use.action!r} "
                                   "(PROGRAM-REF)")
            offer_i.append(len(t.programs))
            offer_f.append(fi)
            # (its first choice checked by compile_instance: a clearing, PROGRAM-USE)
            t.programs.append(compile_use(ab.use, prog, len(t.programs), limit_slot(prog),
                                          fi, bundle, pidx, pieces, offer=True))
    t.offers = list(zip(offer_i, offer_f, strict=True))
    if offer_i:
        t.put("OFFER_I", offer_i)
        t.put("OFFER_F", offer_f)
        consts["NOFFER"] = len(offer_i)
    t.put("COL_PROG", col_prog)
    if CW:
        t.put("COL_WAY_PROG", way_prog)
    # ---- effect programs (usable effects, triggers, immediate cards): one flat table
    eop: list[int] = []
    ea: list[int] = []
    eb: list[int] = []
    ec: list[int] = []

    def emit_effect(prog: list, where: str, crafted: int = -1, zones: Sequence[str] = (),
                    boxes: Sequence[str] = (),
                    holder: M.FactionSpec | None = None,
                    event_piece: bool = False, source: int = -1,
                    card_box: str | None = None,
                    removed: Sequence[str] = ()) -> tuple[int, int]:
        """Append a program; an immediate card's ends with discarding the card.  Zones and
        boxes are the holder faction's (the ops that name one); a part is compiled on its
        own (EOP_A: its index among the effect parts)."""
        start = len(eop)
        for op in effect_ops(prog):
            a = b = c = 0
            if isinstance(op, (M.EFFECT_PARTS, EffectJump)):
                a = len(t.effect_parts)
                t.effect_parts.append(compile_effect_part(op, a, len(eop), where, holder,
                                                          pidx, event_piece, source,
                                                          card_box,
                                                          tuple(removed) if t.loose else ()))
                eop.append(EFFECT_OPS.index("part"))
                for col, v in ((ea, a), (eb, b), (ec, c)):
                    col.append(v)
                continue
            if isinstance(op, M.HitsOp):
                a, b = op.extra, int(op.ignore_rolled)
            elif isinstance(op, M.Actions):
                assert isinstance(op.count, int), "a number in an effect (EFFECT-ACTIONS)"
                # (negative: taken while one can be, no 'done': models.Actions.must)
                a = -op.count if op.must else op.count
                # A faction's effect whose menu runs programs: compiled for the holder
                # alone, whose pieces they name (Law 13.6.1: "one action listed
                # in Daylight"); a card's, for whoever holds it.
                own = holder is not None and any(library.get(m.action) for m in op.menu)
                b, c = emit_menu(op.menu, factions.index(holder) if own else -1)
            elif isinstance(op, M.DiscardDownTo):
                assert op.zone is not None, "an effect's discard_down_to names a zone"
                a = zones.index(op.zone)
            eop.append(EFFECT_OPS.index(effect_op_name(op)))
            for col, v in ((ea, a), (eb, b), (ec, c)):
                col.append(v)
        if crafted >= 0:
            eop.append(len(EFFECT_OPS))  # EOP_DISCARD_CRAFTED: not content, the card's end
            for col, v in ((ea, crafted), (eb, 0), (ec, 0)):
                col.append(v)
        return start, len(eop)

    # Usable effects, dense and stable: faction abilities (in faction order), then card
    # abilities (in card def order).  u indexes the 'use' actions and the used flags.
    effects: list[tuple[int, int, M.Effect, int]] = []  # (source kind, source, ability, roles)
    triggers: list[tuple[int, int, M.Trigger, int]] = []
    for fi, f in enumerate(factions):
        for ab in f.abilities:
            if isinstance(ab, M.Effect):
                effects.append((0, fi, ab, role_mask(f, ab)))
            elif isinstance(ab, M.Trigger):
                triggers.append((0, fi, ab, role_mask(f, ab)))
    for di, d in enumerate(defs):
        for ab in (d["card"].abilities if d["card"] is not None else []):
            if isinstance(ab, M.Effect):
                effects.append((1, di, ab, 0))
            elif isinstance(ab, M.Trigger):
                triggers.append((1, di, ab, 0))
    # Where one trigger takes any player's warriors removed (models.Trigger.whose), two
    # rules may answer one removal by taking the same warriors "instead of the supply"
    # (Law 6.2.3 and a card's box): the pieces removed and not yet taken are
    # counted (S_LOOSE), and each such take is capped by that count (Law 1.5.4 with the
    # Law's "the player taking their turn chooses" order: one warrior, one rule).
    t.loose = any(trig.whose == "any" for _, _, trig, _ in triggers)
    # Triggers with a cost (Law 6.2.3: 'you may spend a card') ask their holder first:
    # a family of their own, indexed apart (their reactions wait as FR_REACT frames of a
    # negative 'what', -1 - ct) and laid out after every other effect program, so the
    # free triggers' indices and the programs' places are what they were before a cost
    # could be data (records keep their actions and frames).
    cost_triggers = [x for x in triggers if x[2].cost != "none"]
    triggers = [x for x in triggers if x[2].cost == "none"]
    U = len(effects)
    u_cols: dict[str, list[int]] = {k: [] for k in (
        "SRC_KIND", "SRC", "TIMING", "SIDE", "MANDATORY", "COST", "TARGET", "START", "END",
        "ROLES", "PRE", "PRE_ARG")}
    if any(e[2].when is not None for e in effects):
        u_cols["WHEN"] = []  # (a column only where an effect has a 'when')
    def holder_zones(src_kind: int, src: int) -> dict:
        """A faction's zones and boxes, and the faction, for its abilities' programs
        (a card has no zone, and at most a box of its own: models.CardBox)."""
        if src_kind != 0:
            box = defs[src]["card"].box if defs[src]["card"] is not None else None
            return {} if box is None else {"card_box": box.id}
        return {"zones": [z.id for z in factions[src].zones],
                "boxes": [x.id for x in factions[src].boxes], "holder": factions[src]}

    programs: list[tuple[int, int, str]] = []  # effect-op ranges and whose they are
    for src_kind, src, eff, roles in effects:
        start, end = emit_effect(eff.do, f"effect {eff.id}", **holder_zones(src_kind, src),
                                 source=src if src_kind == 1 else -1)
        programs.append((start, end, eff.id))
        # What must hold for using it to do anything (public facts only): a menu entry
        # its take_actions can take, or rolled hits for it to ignore.
        pre, pre_arg = 0, 0
        ta = [(i, op) for i, op in enumerate(eff.do) if isinstance(op, M.Actions)]
        # (A menu entry that spends a hand card would make the check depend on the hand.
        # A program with parts besides its actions does something whatever they offer:
        # a card lost unless its move is taken is lost where none can be.)
        if ta and len(ta) == len(eff.do) and not any(reads_hand(m) for m in ta[0][1].menu):
            pre, pre_arg = 1, start + ta[0][0]
        elif all(isinstance(op, M.HitsOp) and op.ignore_rolled and not op.extra
                 for op in eff.do):
            pre = 2
        elif len(eff.do) == 1 and isinstance(eff.do[0], M.TakePart) and \
                eff.do[0].matching is None and eff.do[0].source == "discard":
            # a card of the pile to take (face up, public): its kinds' mask
            pre, pre_arg = 3, take_mask(eff.do[0])
        for key, val in (("SRC_KIND", src_kind), ("SRC", src),
                         ("TIMING", TIMINGS.index(eff.timing)),
                         ("SIDE", SIDES.index(eff.side)), ("MANDATORY", int(eff.mandatory)),
                         ("COST", ("none", "discard", "exhaust_item").index(eff.cost)),
                         ("TARGET", TARGETS.index(eff.target)),
                         ("START", start), ("END", end), ("ROLES", roles), ("PRE", pre),
                         ("PRE_ARG", pre_arg)):
            u_cols[key].append(val)
        if "WHEN" in u_cols:
            # 1 + the index of its compiled condition (effect_when_<k>); 0: always.
            when = 0
            if eff.when is not None:
                when = len(t.effect_whens) + 1
                t.effect_whens.append(compile_effect_condition(
                    eff.when, when - 1, f"effect {eff.id}",
                    factions[src] if src_kind == 0 else None, pidx))
            u_cols["WHEN"].append(when)
    for key, col in u_cols.items():
        t.put(f"U_{key}", col or [0])
    timing_u: list[int] = []
    timing_range: list[int] = []
    late = any(e[2].timing in TIMINGS[-LATE_TIMINGS:] for e in effects)
    if late:
        consts["END_TIMINGS"] = 1  # effects offered only as a phase ends
    for tm in (TIMINGS if late else TIMINGS[:-LATE_TIMINGS]):
        timing_range.append(len(timing_u))
        timing_u += [u for u, e in enumerate(effects) if e[2].timing == tm]
        timing_range.append(len(timing_u))
    t.put("TIMING_U", timing_u or [0])
    t.put("TIMING_RANGE", timing_range)
    trig_cols: dict[str, list[int]] = {k: [] for k in (
        "SRC_KIND", "SRC", "ON", "PIECES", "WARRIOR", "TOKEN", "BY", "ACTOR", "BATTLE",
        "EVENT", "START", "END", "ROLES")}
    for src_kind, src, trig, roles in triggers:
        start, end = emit_effect(trig.do, f"trigger {trig.id}",
                                 **holder_zones(src_kind, src), event_piece=trig.per_piece,
                                 source=src if src_kind == 1 else -1,
                                 removed=trig.pieces if trig.on == "pieces_removed" else ())
        programs.append((start, end, trig.id))
        for key, val in (("SRC_KIND", src_kind), ("SRC", src),
                         ("ON", TRIGGER_EVENTS.index(trig.on)),
                         # (any player's warriors, 'whose': 'any': each faction's)
                         ("PIECES", sum(1 << pidx[x] for x in trig.pieces
                                        if x != "warrior") if trig.whose == "holder" else
                          sum(1 << pidx[w] for f in factions for w, pc in f.pieces.items()
                              if pc.kind == "warrior")),
                         # the holder's warrior, whoever holds it ('warrior')
                         ("WARRIOR", int("warrior" in trig.pieces and
                                         trig.whose == "holder")),
                         ("TOKEN", pidx[trig.token] if trig.token else -1),
                         ("BY", int(trig.by == "any")), ("ACTOR", int(trig.actor == "other")),
                         # 1: only in a battle it defends in; 2: attacks in (Law 10.2.3)
                         ("BATTLE", (None, "defending", "attacking").index(trig.in_battle)),
                         # 1: its program reads the event's pieces (frame field 7 holds
                         # them; left 0 otherwise, so frames stay as they were); 2: it runs
                         # for each piece removed, field 7 the piece (Law 15.2.5)
                         ("EVENT", 2 if trig.per_piece else
                          int(any(isinstance(x, M.EventPieces) for x in M.walk(trig.do)))),
                         ("START", start), ("END", end), ("ROLES", roles)):
            trig_cols[key].append(val)
    for key, col in trig_cols.items():
        t.put(f"TRIG_{key}", col or [0])
    t.per_piece = any(trig.per_piece for _, _, trig, _ in triggers)
    t.item_triggers = any(trig.on == "item_crafted" for _, _, trig, _ in triggers)
    oncraft: list[int] = []
    for di, d in enumerate(defs):
        card = d["card"]
        oncraft += list(emit_effect(card.on_craft, f"card {d['id']}", di)) \
            if card is not None and card.on_craft else [0, 0]
        if card is not None and card.on_craft:
            programs.append((oncraft[-2], oncraft[-1], d["id"]))
    t.put("DEF_ONCRAFT", oncraft)  # [K][2]: program range of an immediate card
    ct_cols: dict[str, list[int]] = {k: [] for k in (
        "SRC_KIND", "SRC", "PIECES", "WARRIOR", "BY", "BATTLE", "EVENT", "START", "END",
        "ROLES", "CAN")}
    for src_kind, src, trig, roles in cost_triggers:
        first_part = len(t.effect_parts)
        start, end = emit_effect(trig.do, f"trigger {trig.id}",
                                 **holder_zones(src_kind, src), removed=trig.pieces)
        programs.append((start, end, trig.id))
        # What must hold for paying to do anything (public facts only): where the program
        # begins with a placement, a clearing it places in (Law 6.2.3: the keep on the
        # map); the part's index, or -1.
        can = first_part if isinstance(trig.do[0], M.PlacePart) else -1
        for key, val in (("SRC_KIND", src_kind), ("SRC", src),
                         ("PIECES", sum(1 << pidx[x] for x in trig.pieces
                                        if x != "warrior")),
                         ("WARRIOR", int("warrior" in trig.pieces)),
                         ("BY", int(trig.by == "any")),
                         ("BATTLE", (None, "defending", "attacking").index(trig.in_battle)),
                         ("EVENT", int(any(isinstance(x, M.EventPieces)
                                           for x in M.walk(trig.do)))),
                         ("START", start), ("END", end), ("ROLES", roles), ("CAN", can)):
            ct_cols[key].append(val)
    for key, col in ct_cols.items():
        t.put(f"CTRIG_{key}", col or [0])
    consts["NCTRIG"] = len(cost_triggers)
    t.put("EOP_OP", eop or [0])
    t.put("EOP_A", ea or [0])
    t.put("EOP_B", eb or [0])
    t.put("EOP_C", ec or [0])
    NTRIG = len(triggers)
    TGT = 1 + P + C  # a use's target: none, a seat, a clearing
    consts.update(U=U, NTRIG=NTRIG, TGT=TGT, NEOPS=len(eop), NAB=NAB,
                  EOP_DISCARD_CRAFTED=len(EFFECT_OPS), WHO_SELF=0, WHO_OPPONENT=1,
                  WHO_TARGET=2, FRAME_FIELDS=FRAME_FIELDS)
    code_groups: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("EOP", EFFECT_OPS),
        ("TM", TIMINGS if consts.get("END_TIMINGS") else TIMINGS[:-LATE_TIMINGS]),
        ("TG", TARGETS if any(e[2].target in TARGETS[-LATE_TARGETS:] for e in effects)
         else TARGETS[:-LATE_TARGETS]), ("SD", SIDES),
        ("EV", TRIGGER_EVENTS))
    for prefix, group in code_groups:
        for i, code in enumerate(group):
            consts[f"{prefix}_{code.upper()}"] = i

    t.put("STEP_OP", ops or [0])
    t.put("STEP_A", pa or [0])
    t.put("STEP_B", pb or [0])
    t.put("STEP_C", pc or [0])
    t.put("STEP_D", pd or [0])
    if where:
        t.menu_where = compile_menu_where(where, pidx)
    for mt, must in then_battles:
        # MENU_D 1: a battle in the clearing its FR_TAKE_ACTIONS frame names (field 5);
        # MENU_B 1: one that must be initiated while one can be (no 'done').
        menu_c[mt] = len(menu_kind) + 1
        for col, v in ((menu_kind, MENU_ACTIONS.index("battle")), (menu_a, 0),
                       (menu_b, must), (menu_c, 0), (menu_d, 1), (menu_mask, 0)):
            col.append(v)
    consts["THEN_BATTLE"] = int(bool(then_battles))
    if any(must for _, must in then_battles):
        consts["THEN_BATTLE_MUST"] = 1  # a battle that must follow a march
    if any(isinstance(x, M.Actions) and x.must for x in M.walk(bundle.deck)) or any(
            isinstance(x, M.Actions) and x.must
            for f in factions for a in f.abilities for x in M.walk(a)):
        consts["MUST_ACTIONS"] = 1  # an effect's actions taken while one can be
    t.put("MENU_KIND", menu_kind or [0])
    t.put("MENU_A", menu_a or [0])
    t.put("MENU_B", menu_b or [0])
    t.put("MENU_C", menu_c or [0])
    t.put("MENU_D", menu_d or [0])
    t.put("MENU_MASK", menu_mask or [0])
    t.put("SETUP_RANGE", [x for r in setup_r for x in r])
    t.put("PHASE_RANGE", [x for r in phase_r for x in r])  # [F][3][2]
    t.put("HOOK_RANGE", [x for r in hook_r for x in r] or [0, 0])
    t.put("STAGE_HOOK", stage_hook or [0])
    t.put("SETUP_ORDER", sorted(range(F), key=lambda i: (factions[i].setup_order, i)))
    consts["NSTEPS"] = len(ops)
    consts["NCYC"] = NCYC
    # the most stages a cycle has: a stage choice's options (models.ChoosePart.stage)
    consts["NSTAGE"] = max([len(cy.stages) for f in factions for cy in f.cycles] + [1])
    consts["NMENU"] = len(menu_kind)

    # ---- action space
    A = t.actions
    A.add("done", 1)
    A.add("clearing", C)
    A.add("role", R)
    A.add("move", E * W)
    A.add("battle", C * P)
    A.add("build", C * NP)
    A.add("recruit_all", 1)
    A.add("recruit", C)
    A.add("craft", K)
    A.add("spend", K)
    A.add("discard", K)
    A.add("add", K * L)
    A.add("spend_place", C * K)
    A.add("remove", NP)
    A.add("activate", K)
    A.add("take", K * K)
    A.add("suit", 3)  # the suit a '?' cost icon is paid with (fox, rabbit, mouse)
    A.add("fail", 1)  # take up a column card that cannot be resolved: its on_fail hook
    A.add("use", U * TGT)  # use effect u on target t: none, seat 1..P, clearing 1+P..
    A.add("spread", C)    # spread: place the next token of a track in a clearing
    A.add("revolt", C)    # revolt in a clearing
    A.add("mobilize", K)  # a hand card into the mobilize entry's zone
    A.add("train", K)     # spend a hand card to put a warrior into the train entry's box
    A.add("organize", C)  # remove a warrior to place the next token in its clearing
    A.add("first", max(NTRIG, 1))  # which of a removal's triggers resolves first
    assert tuple(A.offsets) == ACTION_TYPES
    if any(shifting):
        # One card moved between columns (Law 15.6.2): its card, from, to; only in a
        # bundle with such a step (the others keep the engine's action space).
        A.add("shift", K * L * L)
    if any(x.choice_kind == "forest" for x in t.programs) or \
            any(x.forest for x in t.effect_parts):
        # A program's second choice of a forest and a piece in it, or an effect program's
        # piece placed in a forest of its actor's choice: only in a bundle with one (the
        # others keep the engine's action space).
        A.add("forest", consts["NFOREST"] * NP)
    if any(x.choice_kind == "card" for x in t.programs):
        # A program's second choice of a card of the hand (Law 13.2.4: the card shown
        # with a guess): only in a bundle with one.
        A.add("card", K)
    if any(x.choice_kind == "number" for x in t.programs):
        # A program's second choice of a number (Law 12.5.1, Dig: up to four warriors):
        # 0 to NUMBER_MOST, only in a bundle with one.
        A.add("number", M.NUMBER_MOST + 1)
    if any(x.choice_kind == "piece" for x in t.programs) or \
            "PIECE_CARRIES" in t.table_layout.offsets:
        # A program's second choice of a piece in the chosen clearing (Law 15.5.2,
        # Recover), or a token a moving warrior carries (15.2.4): only in a bundle with
        # one.
        A.add("piece", NP)
    if any(optional_columns):
        consts["OPTIONAL_COLUMNS"] = 1
    if any(capping):  # (the others' cores are as they were before these were)
        consts["SHIFTS"] = int(any(shifting))
        consts["COLUMNS_SHIFT"] = COLUMNS_SHIFT
    # Program instances: the action type each one's first choice spans (its verb's).
    spans = {"none": 1, "card": K, "clearing": C, "clearing_card": C * K,
             "piece_clearing": C * NP, "stage": consts["NSTAGE"]}
    # The content's own verbs (models.ENGINE_WORDS): each a new action type, after the
    # engine's, in the order of their first use, its size its first choice's shape's (a
    # bundle without one keeps the engine's action space, its notation and records).
    verbs: dict[str, str] = {}
    verb_stages: dict[str, list[str]] = {}
    for x in t.programs:
        if x.gen and x.verb not in A.offsets and x.verb not in verbs:
            if x.verb in M.ENGINE_WORDS or not x.verb.isidentifier():
                raise ProgramError(f"program {x.program}: its verb {x.verb!r} is no word a "
                                   "content verb may be (PROGRAM-SHAPE)")
            verbs[x.verb] = x.shape
            A.add(x.verb, spans[x.shape])
        # A stage verb's notation names the stages of its cycle: one cycle's a verb.
        if x.gen and x.shape == "stage" and \
                verb_stages.setdefault(x.verb, x.stages) != x.stages:
            raise ProgramError(f"program {x.program}: its verb {x.verb!r} chooses "
                               "the stages of cycles of different stages")
    consts["NACTIONS"] = A.size
    for x in t.programs:
        if not x.gen:
            continue  # a step's: it lists no options (PROG_A0/A1 0, 0)
        if x.verb not in A.offsets or A.sizes[x.verb] != spans[x.shape]:
            raise ProgramError(f"program {x.program}: its verb {x.verb!r} is no action type "
                               f"whose options are one {x.shape.replace('_', ' and one ')}")
    t.put("PROG_A0", [A.offsets[x.verb] if x.gen else 0 for x in t.programs] or [0])
    t.put("PROG_A1", [A.offsets[x.verb] + A.sizes[x.verb] if x.gen else 0
                      for x in t.programs] or [0])
    consts["NPROG"] = len(t.programs)

    # ---- state layout
    # One removal event touches one clearing, or every clearing of a suit at once (Law
    # 1.5.4: remove_enemy_pieces by suit).
    event_clearings = max(Counter(clearings[c].suit for c in c_ids).values(), default=1)
    # Frames nest a few deep (a window, a program, its decision, a battle's) plus the
    # reactions one removal event can wait on, in each clearing it touched: a rescue of
    # each seat that may hold one, and each trigger of each seat that may hold it (a
    # faction's trigger one seat, a card's any seat).
    # (A trigger with a cost waits apart, one per seat holding one: a faction's one seat,
    # a card's any seat; Law 6.2.3's Field Hospitals.)
    # Each waits once per clearing: a faction's for its one seat, a card's for any seat;
    # the first figure is the bound the engine's own rescue had (one per faction holding
    # one), kept where it holds, so the base game's layout is what it was.
    rescuers = len({src for src_kind, src, _, _ in cost_triggers if src_kind == 0}) + \
        (P if any(src_kind for src_kind, _, _, _ in cost_triggers) else 0)
    cost_frames = sum(P if src_kind else 1 for src_kind, _, _, _ in cost_triggers)
    holders = sum(P if src_kind else 1 for src_kind, _, _, _ in triggers)
    # The FR_REACT_ORDER frame over a seat's triggers of one event (at most one per seat
    # holding two triggers) fits in the slack of 16.
    max_frames = 16 + max(P * (1 + NTRIG),
                          (max(min(rescuers, P), cost_frames) + holders) * event_clearings)
    # A trigger for each piece removed waits once a piece: all of its pieces removed at
    # once (Law 15.2.5's relics, a Favor's every clearing of a suit) wait together.
    max_frames += sum(sum(f.pieces[x].count for f in factions for x in trig.pieces
                          if x in f.pieces) if trig.whose == "holder" else
                      sum(pc.count for f in factions for pc in f.pieces.values()
                          if pc.kind == "warrior")
                      for _, _, trig, _ in triggers if trig.per_piece)
    nlimits = sum(1 for x in t.programs if x.limit_slot >= 0)
    consts["NLIMITS"] = max(1, nlimits)
    S = t.state_layout
    for name, size in [
        ("RNG", 1), ("NPLAYERS", 1), ("CURRENT", 1), ("PHASE", 1), ("STEP", 1),
        ("STEP_END", 1), ("STEP_ENTERED", 1), ("OVER", 1), ("WINNER", 1), ("TURN", 1),
        ("DECISIONS", 1), ("SETUP_SEAT", 1), ("FIRST", 1),
        ("RET_STEP", 1), ("RET_END", 1),
        ("SEAT_FACTION", P), ("VP", P), ("HOME", P), ("ROLE", P), ("ROLES_RETIRED", P),
        ("DOMINANCE", P),
        # per-turn counters
        # LIMITS: the once-per-turn programs' uses this turn, one slot each (at least
        # one: the slot the one once-per-turn recruit held before programs, so the layout
        # of a bundle with one such program is as it was)
        ("ACTIONS_LEFT", 1), ("LIMITS", max(1, nlimits)), ("CRAFT_USED", 4),
        ("MARCH_LEFT", 1),
        ("ADDED", 1), ("ADDED_BIRDS", 1), ("COL", 1), ("CARD_DONE", N),
        ("BUILD_PENDING", 1), ("PAY_LEFT", 1), ("PAY_TOKEN", 1), ("PAY_AT", 1),
        # a placement the supply cannot fully cover: pieces still owed per clearing
        ("PLACE_LEFT", C), ("CRAFT_ANY_LEFT", 1),
        # board
        ("BOARD", C * NP), ("RUINS", C), ("SUPPLY", NP), ("OUT", NP),
        # warriors in each seat's boxes (off the map, not in the supply)
        ("BOX", P * B),
        # zone cards owed by a zone_pay frame, the action they pay for and its menu entry
        ("ZPAY_LEFT", 1), ("ZPAY_ACTION", 1), ("ZPAY_ENTRY", 1),
        # actions taken in the current 'actions' step (a count read from a box)
        ("ACTIONS_TAKEN", 1),
        # cards
        ("CARD_LOC", N), ("DECK", N), ("DECK_LEN", 1),
        # items
        ("ITEMS", I), ("CRAFTED", P * I),
        # decision frames: kind, player, six more fields
        ("DEPTH", 1), ("FRAMES", max_frames * FRAME_FIELDS),
        # usable effects used this turn (phase timings) or this battle, per seat (public)
        ("USED", P * max(U, 1)),
        # hands seen: what seat a saw of the seat r places after it (counts per card
        # def), and the turn it saw it: each seat's memory, from itself on
        ("SEEN", P * P * K), ("SEEN_TURN", P * P),
        # the removal event in progress (Law 1.5.4): one slot per clearing it touched,
        # in the order touched (the pieces removed there, the slot's clearing, how many
        # slots), by whom (per victim), how many pieces in all
        ("LEDGER", event_clearings * NP), ("LEDGER_AT", event_clearings), ("LEDGER_NC", 1),
        ("LEDGER_BY", P), ("LEDGER_N", 1),
        # no win is decided while both sides' hits land (Law 4.3.6, 3.1.1)
        ("HOLD_VICTORY", 1),
        # battle: the six steps of Law 4.3
        ("B_STAGE", 1), ("B_ATT", 1), ("B_DEF", 1), ("B_AT", 1), ("B_DEPTH", 1),
        ("B_HITS_ATT", 1), ("B_HITS_DEF", 1), ("B_AMBUSH", 1), ("B_ROLL_ATT", 1),
        ("B_ROLL_DEF", 1), ("B_EXTRA_ATT", 1), ("B_EXTRA_DEF", 1), ("B_IGNORE_ATT", 1),
        ("B_IGNORE_DEF", 1),
        # scenario aids (runtime/scenario.py): battle dice queued ahead of the game's own
        # (pairs high, low), and where the engine holds a turn for a scenario's checks;
        # empty and 0 in every game
        ("DICE_POS", 1), ("DICE_LEN", 1), ("DICE", 2 * MAX_DICE), ("STOP_AT", 1),
        ("STOPPED", 1),
        # cycles (models.Cycle): the stage each seat's markers stand on (public)
        ("CYCLE", P * NCYC),
    ]:
        S.add(name, size)
    if any(x.discards_resolving for x in t.programs):
        # the column card a column's program resolves (its 'discard' of it, Law 15.5.2)
        S.add("RESOLVING", 1)
    if bundle.forest_places:
        # the pieces in each forest (Law 15.3.1), in the map's order of its forests
        S.add("FOREST", len(bundle.map.forests) * NP)
    if any(x.choice_kind == "forest" for x in t.programs):
        # the forest a program's second choice chose, as the parts after it run
        S.add("FOREST_CHOSEN", 1)
    if any(isinstance(x, M.Did) for x in M.walk((bundle.deck, bundle.factions,
                                                  bundle.programs))):
        # what the actions of an effect program's 'actions' part, or of a turn step's,
        # did (models.Did): 1 moved, 2 initiated a battle; cleared as they begin
        S.add("DID", 1)
    if any(isinstance(a, M.Effect) and a.cost == "exhaust_item"
           for a in M.walk((bundle.deck, bundle.factions))):
        # how many of each seat's crafted items are exhausted, face down (models.Effect.
        # cost): a count, as no rule reads which
        S.add("EXHAUSTED", P)
    if any(p.faces for f in bundle.factions for p in f.pieces.values()):
        # the face each seat's token laid face down hides in each clearing, its face
        # piece + 1 (0: none there): only that seat sees its own (models.Piece.faces)
        S.add("HFACE", P * C)
        # the faces a wrong guess said aloud a seat's token in a clearing does not hide
        # (Law 13.2.4: public), a bitmask over pieces, cleared as the token goes or
        # turns: what a sample dealt for another seat keeps to (deal_faces)
        S.add("FACE_NOT", P * C)
    if any(x.keeps_piece for x in t.programs):
        # the piece a program's first choice named, kept while its second choice is
        # asked (a guess said aloud, Law 13.2.4: public)
        S.add("PIECE_KEPT", 1)
    if TAKEN_SLOTS.get():
        # how many times each counted program's action was taken this turn, per
        # (faction, program): models.TakenValue
        S.add("TAKEN", len(TAKEN_SLOTS.get()))
        consts["NTAKEN"] = len(TAKEN_SLOTS.get())
    if t.npool:
        # the pieces held on each card with a box (models.CardBox), per piece, public
        S.add("POOL", t.npool * NP)
    if t.loose:
        # the pieces removed and not yet taken "instead of the supply" by a trigger
        S.add("LOOSE", NP)
    if t.first_hits:
        # battle: whether each side (attacker, defender) has taken its first hit (Law
        # 15.2.4); only in a bundle with an ability that ignores it
        S.add("B_FIRST_HIT", 2)
    consts["STATE_SIZE"] = S.size
    consts["MAX_DICE"] = MAX_DICE
    for i, code in enumerate(STOPS):
        consts[f"STOP_{code.upper()}"] = i + 1
    consts["MAX_FRAMES"] = max_frames
    consts["EV_CLEARINGS"] = event_clearings
    # (The observation's decision codes steps after the frames: a frame kind added past
    # those counted before is counted only in a bundle that has it, so the base game's
    # observations are as they were.)
    nframes = len(FRAME_KINDS)
    while FRAME_KINDS[nframes - 1] in UNCOUNTED_FRAMES and \
            FRAME_KINDS[nframes - 1] not in t.uses.frames:
        nframes -= 1
    consts["NFRAMES"] = nframes
    consts["NOPS"] = len(STEP_OPS)

    t.observation = place_observation(observation, consts, S)
    consts["OBS_SIZE"] = sum(f.size for f in t.observation)
    # Scratch (Core.k): the largest of the helpers' needs, among them the observation's
    # table of where each card location counts (NLOC rows of 1 + one per cards field).
    consts["OBS_ROW"] = 1 + sum(f.kind == "cards" for f in t.observation)
    # ... and the evaluation's (core/agent.py.j2): a ruler per clearing, a count per
    # card location, a worth per seat.
    consts["SCRATCH"] = max(64 + 4 * C, consts["NLOC"] * consts["OBS_ROW"],
                            C + consts["NLOC"] + P)
    for i, term in enumerate(EVAL_TERMS):
        consts[f"W_{term.upper()}"] = i
    consts["NW"] = len(EVAL_TERMS)
    # The look-ahead answers at most this many questions an action raises (a march's
    # second move, a payment, an ambush ...) before it evaluates (core/agent.py.j2).
    consts["SETTLE"] = 8

    t.names = {
        "clearings": [str(c) for c in c_ids],
        "forests": [fo.id for fo in m.forests],
        "factions": [f.id for f in factions],
        "pieces": [name for _, name, _ in pieces],
        "cards": [d["id"] for d in defs],
        "items": items,
        "roles": [[r.id for r in f.roles] for f in factions],
        "columns": [[c.id for c in f.columns] for f in factions],
        "suits": list(SUITS),
        "edges": [f"{c_ids[a]}-{c_ids[b]}" for a, b in edges],
        "ops": list(STEP_OPS),
        "steps": step_names,
        "frames": list(FRAME_KINDS[:consts["NFRAMES"]]),  # (those the core counts)
        "effects": [e[2].id for e in effects],
        "triggers": [trig.id for _, _, trig, _ in triggers],
        # the decision each trigger with a cost asks, by its index (its verb, or its id)
        "cost_triggers": [trig.verb or trig.id for _, _, trig, _ in cost_triggers],
        "zones": [[z.id for z in f.zones] for f in factions],
        "boxes": [[x.id for x in f.boxes] for f in factions],
        "cycles": [[cy.id for cy in f.cycles] for f in factions],
        "stages": [[list(cy.stages) for cy in f.cycles] for f in factions],
        "hooks": [h for _, h in hook_names],
        "programs": programs,
        # program instances: what each runs, for whom, and its once-per-turn slot
        "instances": [(x.program, x.faction, x.limit_slot) for x in t.programs],
        "hook_factions": [fi for fi, _ in hook_names],
        "events": list(EVENTS),
        "score_why": list(SCORE_WHY),
        # the content's own verbs, in the action space's order, and their shapes (what
        # one option is: models.SHAPE_WORDS), for the notation
        "verbs": verbs,
        # a stage choice's verb: its cycle's stages (the notation 'verb stage')
        "verb_stages": verb_stages,
    }
    return t
