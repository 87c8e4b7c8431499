"""The schema: Root's content as pydantic v2 models.

Every content file is one of four documents, tagged by ``kind``: a ``pack`` manifest,
a ``map``, a ``deck`` or a ``faction``.  Faction behaviour is written with a closed
catalogue of generic steps (tagged by ``op``) and abilities (tagged by ``kind``); the
engine implements each entry once and never names the content that uses it.  The
catalogue is documented by ``rootlaw.spec.catalogue`` and exported in the JSON Schema.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator
from pydantic import Strict as Strictness

from .diagnostics import LocatedValueError as Err
from .words import did_you_mean, unknown_name


def unknown(what: str, name: object, known) -> str:
    """A reference to an id that is not defined, in the author's words: the id meant
    when one is close, else the ids there are (when they are few)."""
    return unknown_name(what, name, known, list_known=12)

Suit = Literal["fox", "rabbit", "mouse", "bird"]
ClearingSuit = Literal["fox", "rabbit", "mouse"]
CostSuit = Literal["fox", "rabbit", "mouse", "any"]
Ident = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", max_length=64)]
ParamValue = Ident | list[Ident] | Annotated[int, Field(ge=0, le=100)] | None
"""What a menu entry gives a program's parameter: an id, a list of ids, a whole number
(0-100), or null (left out)."""
Percent = Annotated[float, Field(ge=0, le=100)]


class Strict(BaseModel):
    """One strict base: unknown keys are errors, models are immutable, and values are
    taken as written: "25" or true where an integer goes, or 1 where a boolean goes, are
    errors (as the exported JSON Schema says), never converted."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True,
                              strict=True)


# A field added to the schema after content was first hashed (saves and logs of format 2
# record the bundle hash): at its default it stays out of the bundle hash, so content
# that does not use it keeps its hash, and its saves and logs keep loading
# (spec/bundle.py, Bundle.canonical).  Its default must keep the earlier behaviour.
ADDED_LATER: dict[str, Any] = {"x-rootlaw-added": True}
# A field added after packs' own libraries of programs were first hashed: at its default
# it stays out of their dump too (a library was dumped whole before), so a pack's library
# keeps its hash.
ADDED_TO_LIBRARIES: dict[str, Any] = {**ADDED_LATER, "x-rootlaw-added-library": True}


# A JSON array read as a fixed-size tuple: strict mode would demand a Python tuple, so
# only the container is lax; its items stay strict.
ClearingPair = Annotated[tuple[int, int], Strictness(False)]
ForestPair = Annotated[tuple[str, str], Strictness(False)]
Position = Annotated[tuple[Percent, Percent], Strictness(False)]


# --------------------------------------------------------------------------- maps


class Clearing(Strict):
    id: int = Field(ge=1, le=64)
    """Clearing number (Rootlog priority numbering on the base maps)."""
    suit: ClearingSuit
    """The printed suit of the clearing (Law 2.2.2)."""
    slots: int = Field(ge=0, le=6)
    """Printed building slots, including a slot that starts with a ruin (Law 2.2.3)."""
    ruin: bool = False
    """Whether one slot starts filled by a ruin (Law 2.2.4, setup 5.1.4)."""
    corner: bool = False
    """Corner clearings are the starting corners of Law 6.3.2 and 7.3.2."""
    edge: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """On the map's edge (Law G.15: the clearings of the closed loop of paths round the
    map's border; the Autumn map's 1 to 9).  Read by the clearing filter 'edge' (Law
    15.3: the Keepers' second setup clearing, 'an adjacent map-edge clearing')."""
    position: Position | None = None
    """Drawing only: where pictures put the clearing, x and y in percent of the board
    from its top-left.  A map without positions is laid out from its paths."""


class Forest(Strict):
    id: str
    """Forest id: its clearings' numbers, sorted and joined by '_'."""
    clearings: list[int]
    """The clearings the forest touches (Law 2.4.1)."""


class MapSpec(Strict):
    kind: Literal["map"]
    id: Ident
    name: str
    clearings: list[Clearing] = Field(min_length=2)
    paths: list[ClearingPair]
    """Printed paths between clearings (Law 2.2.1)."""
    rivers: list[ClearingPair] = []
    """River links; rivers are not paths (Law 2.3)."""
    forests: list[Forest] = []
    forest_adjacency: list[ForestPair] = []
    """Pairs of forests separated by a single path (Law 2.4.1)."""
    opposite_corners: list[ClearingPair]
    """Pairs of diagonally opposite corner clearings."""

    @model_validator(mode="after")
    def _references(self) -> MapSpec:
        known: set[int] = set()
        for i, c in enumerate(self.clearings):
            if c.id in known:
                raise Err("ID-DUP", ("clearings", i, "id"), f"duplicate clearing id {c.id}")
            known.add(c.id)
        for group, pairs in (("paths", self.paths), ("rivers", self.rivers),
                             ("opposite_corners", self.opposite_corners)):
            for i, (a, b) in enumerate(pairs):
                for j, x in enumerate((a, b)):
                    if x not in known:
                        raise Err("REF-UNDEF", (group, i, j), f"{group}: unknown clearing {x}")
                if a == b:
                    raise Err("VALUE-INVALID", (group, i),
                              f"{group}: a link from clearing {a} to itself")
        for i, f in enumerate(self.forests):
            for j, x in enumerate(f.clearings):
                if x not in known:
                    raise Err("REF-UNDEF", ("forests", i, "clearings", j),
                              f"forest {f.id}: unknown clearing {x}")
        forests = {f.id for f in self.forests}
        for i, pair in enumerate(self.forest_adjacency):
            for j, fid in enumerate(pair):
                if fid not in forests:
                    raise Err("REF-UNDEF", ("forest_adjacency", i, j),
                              f"forest_adjacency: {unknown('forest', fid, forests)}")
        return self


# --------------------------------------------------------------------------- cards


class CardBox(Strict):
    """Pieces held on a card in a play area, any player's, neither on the map nor in a
    supply: each is its owner's still, and goes back to its owner's supply when the
    card's program empties the box ('into_box' with 'from_box') or the card leaves the
    play area (discarded: nothing is left on it).  Public, as every piece is."""

    id: Ident
    piece: Literal["warrior"] = "warrior"
    """What it holds: warriors, of any player."""


class Card(Strict):
    id: Ident
    name: str
    suit: Suit
    kind: Literal["item", "ambush", "dominance", "persistent", "immediate"]
    """item: craft for an item and VP; ambush: played in battle (Law 2.1.2); dominance:
    activated for a new victory condition (Law 3.3); persistent/immediate: crafted
    effects (Law 4.1.2-4.1.3)."""
    cost: list[CostSuit] = []
    """Crafting cost: one crafting piece per icon; 'any' is the three-suit '?' (Law 4.1.1)."""
    item: Ident | None = None
    """The item an item card takes from the supply (Law 4.1.2)."""
    vp: int = Field(default=0, ge=0, le=100)
    """VP scored when crafted."""
    count: int = Field(default=1, ge=1, le=64)
    """Copies in the deck."""
    text: str | None = None
    """The card's text (a paraphrase), for people: what the card does is in 'abilities'
    (persistent) or 'on_craft' (immediate)."""
    abilities: list[Ability] = []
    """Persistent cards: what the card grants while it lies in its crafter's play area,
    like a faction's abilities (Law 4.1.3).  A card with none is not craftable."""
    on_craft: list[EffectOp] = []
    """Immediate cards: the effect program resolved when the card is crafted; the card
    is discarded afterwards (Law 4.1.2).  A card with none is not craftable."""
    box: CardBox | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Persistent cards: pieces held on the card, any player's (the Exiles deck's Coffin
    Makers: "place them on this card instead"); its abilities' programs name it by its
    id (into_box, the value {"box": id})."""

    @model_validator(mode="after")
    def _shape(self) -> Card:
        if self.kind == "item" and (self.item is None or not self.cost):
            raise Err("KEY-MISSING", ("item",) if self.item is None else ("cost",),
                      "an item card needs an 'item' and a 'cost'")
        if self.kind != "item" and self.item is not None:
            raise Err("VALUE-INVALID", ("item",), "only item cards carry an 'item'")
        if self.kind != "persistent" and self.abilities:
            raise Err("VALUE-INVALID", ("abilities",),
                      "only persistent cards grant abilities (immediate ones: 'on_craft')")
        if self.kind != "immediate" and self.on_craft:
            raise Err("VALUE-INVALID", ("on_craft",), "only immediate cards have 'on_craft'")
        for k, ab in enumerate(self.abilities):
            if getattr(ab, "kind", "") == "offer":
                raise Err("VALUE-INVALID", ("abilities", k, "kind"), "an 'offer' is a "
                          "faction's, to the other players; a card's abilities are its "
                          "holder's own")
        if self.kind in ("ambush", "dominance") and self.cost:
            raise Err("VALUE-INVALID", ("cost",),
                      f"{self.kind} cards cannot be crafted (no 'cost')")
        if self.box is not None and self.kind != "persistent":
            raise Err("VALUE-INVALID", ("box",), "only a persistent card holds pieces (a "
                      "'box'): it lies in a play area while its abilities use them")
        return self


class DeckSpec(Strict):
    kind: Literal["deck"]
    id: Ident
    name: str
    cards: list[Card]
    items: dict[Ident, Annotated[int, Field(ge=0, le=64)]]
    """The item supply formed at setup (Law 5.1.5)."""

    @model_validator(mode="after")
    def _references(self) -> DeckSpec:
        first: dict[str, int] = {}
        for i, c in enumerate(self.cards):
            if c.id in first:
                raise Err("ID-DUP", ("cards", i, "id"),
                          f"duplicate card id {c.id!r} (first at /cards/{first[c.id]})")
            first[c.id] = i
            if c.item is not None and c.item not in self.items:
                raise Err("REF-UNDEF", ("cards", i, "item"),
                          f"card {c.id!r}: {unknown('item', c.item, self.items)}")
        return self


# --------------------------------------------------------------------------- factions


class Track(Strict):
    """A faction-board track under a building or token type: index i is the (i+1)-th
    piece of that type on the map."""

    vp: list[Annotated[int, Field(ge=0, le=100)]] = []
    """VP printed on each space; scored when the space is uncovered (build, spread,
    organize) or by 'score_track' (Evening)."""
    cost: list[Annotated[int, Field(ge=0, le=100)]] = []
    """Cost printed above each space: paid in the faction's payment token (build) or in
    matching zone cards (spread)."""
    draw_at: list[Annotated[int, Field(ge=0, le=100)]] = []
    """Card-draw bonuses: +1 card per threshold reached by buildings on the map."""


class Piece(Strict):
    kind: Literal["warrior", "building", "token"]
    count: int = Field(ge=1, le=64)
    """The whole supply (Law 1.5.1)."""
    track: Track | None = None
    permanent_removal: bool = False
    """A removed piece of this type leaves the game instead of returning (the keep)."""
    suit: ClearingSuit | None = None
    """The suit a building or token matches, read where a program places the piece of
    the clearing's or card's suit among several ('of_suit': revolt's bases, Law 8.4.1;
    the Cult's gardens, 10.5.1).  Nothing else reads it (build places a building in any
    clearing; a zone's cards are matched to the clearing, not to the piece), so
    elsewhere it is a FIELD-UNREAD warning."""
    per_clearing: int | None = Field(default=None, ge=1, le=64)
    """Tokens only: at most this many of the token in one clearing (Law 8.2.5.I); no
    limit without."""
    value: int | None = Field(default=None, ge=0, le=99, json_schema_extra=ADDED_LATER)
    """A number printed on the piece, read by the value 'value_of' (Law 15.2.1: a relic's
    back shows 1, 2 or 3)."""
    reveals: list[Ident] = Field(default=[], max_length=20, json_schema_extra=ADDED_LATER)
    """A piece lying face down: the faction's pieces it may turn out to be when the part
    'reveal' turns it over, one drawn at random from their supply, each piece there as
    likely as any other (Law 15.2.1, 15.3.1: relics shuffled face down, their values
    unknown to everyone until one is flipped).  Nobody knows which it is before: the
    draw is made as it is turned over."""
    faces: list[Ident] = Field(default=[], max_length=20, json_schema_extra=ADDED_LATER)
    """A token laid face down whose face its owner chooses as it places it, and knows
    (Law 13.2.2: "The Corvids can inspect any facedown plot token at any time"): the
    faction's tokens it may show, their counts adding up to this one's (the same
    physical tokens).  Every player sees that one lies in a clearing; only its owner
    sees which face it hides, until the part 'reveal' turns it face up.  A face is
    placed only face down ('place' with 'face_down'), and at most one such token lies
    in a clearing ('per_clearing': 1, its faces lying face up counted with it: Law
    13.2.2.II, "Each clearing can hold only one plot token"), so a removal knows which
    face went.  Unlike 'reveals', nothing is drawn: the face was chosen."""
    type: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The type the piece shows, a word of the content's (Law 15.2.1: a relic is a
    figure, a tablet or jewelry; 15.2.2: a waystation shows one relic type), read by a
    piece choice's 'same_type_as'."""
    carries: list[Ident] = Field(default=[], max_length=40, json_schema_extra=ADDED_LATER)
    """Warriors: tokens of these kinds each of them moving may take along, one a warrior,
    from the clearing it leaves into the one it enters (Law 15.2.4, Devout Knights: "When
    moving, the Keepers may move one relic with each Keeper warrior that they move"): the
    mover is asked, after the move, which to take ('piece <piece>'), one at a time, or
    'done'."""
    other_face: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """A building with two faces: the piece that is its other face, the two one physical
    piece each (Law 15.2.2: "Each waystation shows one relic type on its front and
    another relic type on its back").  Placing one takes the other out of play with it;
    one returned to the supply brings the other back.  The two name each other and have
    the same count."""


class Zone(Strict):
    """A named pile of a faction's cards that is not its hand (Law 8.2.3, the
    supporters stack): cards in it do not count toward the hand or its limit, and are
    spent only for their suit.  Face down unless it says otherwise: its owner sees the
    cards, the others how many."""

    id: Ident
    face_down: bool = Field(default=True, json_schema_extra=ADDED_LATER)
    """Whether only its owner sees its cards (the supporters stack, Law 8.2.3); false: a
    pile every player sees.  A face-down zone is hidden information: no question the
    engine asks depends on what it holds (Law 1.2)."""
    capacity: int | None = Field(default=None, ge=0, le=100)
    """Most cards it holds; a card gained into a full zone is discarded (Law 8.2.3.I).
    No limit without."""
    unlimited_while: list[Ident] = []
    """Buildings that lift the capacity while any of them is on the map."""
    takes_discards: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """Every card spent or discarded by any player (a dominance card too) goes into this
    pile instead of the discard pile while its faction is in play (Law 10.2.6, the Lost
    Souls pile); a card discarded from the pile itself goes to the discard pile.  Such a
    pile is face up and has no capacity; a bundle has at most one."""


class Box(Strict):
    """A named holder of a faction's warriors off the map (Law 8.1, the officers box):
    warriors in it are neither on the map nor in the supply."""

    id: Ident
    piece: Ident | list[Ident]
    """The warrior it holds; or a list: pieces of these kinds taken out of play into it
    for good, the box a tally of them (Law 15.5.2: a Relics row holds the relics of its
    type recovered, whatever their values; the part 'move' puts them there, and nothing
    takes them out)."""

    @property
    def tally(self) -> bool:
        """Whether it tallies pieces of several kinds taken out of play ('piece' a list)."""
        return not isinstance(self.piece, str)

    def holds(self, piece: str) -> bool:
        """Whether pieces of this kind go into it."""
        return piece in self.piece if self.tally else piece == self.piece


class FromBox(Strict):
    """A count read from a box: as many as the faction's warriors in it."""

    box: Ident


def _count_form(v: object) -> str:
    if isinstance(v, (dict, FromBox)):
        return "from-box"
    return "any-number" if v is None else "number"


# An 'actions' step's count: a number, {"box": id} or null.  Told apart by the value's
# JSON type, so a wrong value gets one error, at the count (the loader drops these tags
# from locations: UNION_TAGS).
ActionCount = Annotated[
    Annotated[Annotated[int, Field(ge=0, le=100)], Tag("number")] |
    Annotated[FromBox, Tag("from-box")] | Annotated[None, Tag("any-number")],
    Discriminator(_count_form),
]
UNION_TAGS = frozenset({"number", "from-box", "any-number", "parameter", "track-cost",
                        "warriors-at", "sum-of", "if-then", "at-least", "none-on-map",
                        "negation", "clearing-count",
                        "program"})  # (a step's or menu entry's naming a program)


class FactionCard(Strict):
    """A card that belongs to a faction, not the shared deck (e.g. viziers)."""

    id: Ident
    name: str
    suit: Suit
    count: int = Field(default=1, ge=1, le=64)


COLUMN_ROUTINES = ("move", "battle")
"""The column actions that are the general Law's own routines (Law 4.2, 4.3); any other
column runs a program of the bundle's libraries."""

# A column's first spelling: an action of the engine's with the building it names, read
# as the standard program that says it (Law 7.5.2.I and IV).  The rules hash writes such
# a column back as it was first written (spec/bundle.py), so records keep their hash.
FIRST_COLUMN_PROGRAMS = {"recruit": "recruit_at", "build": "build_ruled"}


class ColumnWay(BaseModel):
    """One way of taking a column's card: the general Law's move or battle, or a program
    of the bundle's libraries whose first choice is a clearing (or a piece and a
    clearing), its other fields binding the program's parameters as a menu entry's do."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True,
                              strict=True)
    __pydantic_extra__: dict[str, ParamValue]  # type: ignore[assignment]

    action: ProgramName
    """'move', 'battle', or a program's name (standard: recruit_at, build_ruled)."""

    def fields(self) -> dict[str, ParamValue]:
        """The fields that bind the program's parameters, as written."""
        return dict(self.model_extra or {})


class Column(ColumnWay):
    """A column of cards resolved in order by 'resolve_columns' (the Decree, Law 7.5.2):
    each card of the column is taken as the column's action in a clearing matching the
    card.  The action is the general Law's move or battle, or a program of the bundle's
    libraries whose first choice is a clearing (or a piece and a clearing): its other
    fields bind the program's parameters, as a menu entry's do.  A program's card
    fails (the resolve step's 'on_fail' hook) when it has no option in a matching
    clearing, or when a placement it makes falls short (Law 1.5.4: placed as far as the
    supply allows, yet the card is not fully taken: 7.5.2, the Charismatic's two).
    With 'or', each card is taken one of several ways, the player's choice (Law 15.5.2,
    the Keepers' 'take a move from it, or recover relics from it'): a card fails only
    when no way of taking it has an option."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True,
                              strict=True, populate_by_name=True)

    id: Ident
    or_: list[ColumnWay] = Field(default=[], alias="or", max_length=3,
                                 json_schema_extra=ADDED_LATER)
    """Other ways of taking the column's card, each an action and its fields: the card is
    taken by the column's action or by one of these, as the player chooses (Law 15.5.2,
    'Move or Recover').  No two ways may be of the same action type (COLUMN-WAYS)."""
    building: Ident | None = None
    """First spelling (with action 'recruit' or 'build'): the building recruited at or
    placed; read as the program recruit_at or build_ruled with buildings [building]."""

    @model_validator(mode="before")
    @classmethod
    def _first_spelling(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("action") in FIRST_COLUMN_PROGRAMS and \
                set(data) <= {"id", "action", "building"}:
            if not isinstance(data.get("building"), str):
                raise Err("KEY-MISSING", ("building",),
                          f"column {data.get('id')}: {data['action']} needs a 'building'")
            data = {"id": data.get("id"), "action": FIRST_COLUMN_PROGRAMS[data["action"]],
                    "buildings": [data["building"]]}
        return data

    def ways(self) -> list[tuple[tuple, ColumnWay]]:
        """Each way of taking the column's card, with its location in the column: the
        column's own action first, then its 'or' ones."""
        return [((), self), *((("or", k), w) for k, w in enumerate(self.or_))]

    def first_spelling(self) -> dict | None:
        """The column as first written, when it says what a first spelling said (the
        rules hash's dump): {"action": "recruit", "building": b}, or None."""
        fields = self.fields()
        if self.or_:
            return None
        for action, program in FIRST_COLUMN_PROGRAMS.items():
            b = fields.get("buildings")
            if self.action == program and set(fields) == {"buildings"} and \
                    isinstance(b, list) and len(b) == 1:
                return {"id": self.id, "action": action, "building": b[0]}
        return None


class Role(Strict):
    """A choosable face card (a leader): tucks fixed cards, switches abilities."""

    id: Ident
    name: str
    tuck: list[Ident] = []
    """Columns that receive one fixed faction card each when the role is taken."""
    abilities: list[Ident] = []
    """Ids of faction abilities active only while this role is held."""
    suppress: list[Ident] = []
    """Ids of faction abilities switched off while this role is held."""


class Cycle(Strict):
    """A marker going round a ring of stages (seasons, tides, phases of the moon): the
    step 'run_stage' runs the hook its current stage names, the standard program
    'advance_cycle' (the part 'set_stage' 'by' a number) moves it on, and after the last
    stage comes the first.  Public: everybody sees where it stands."""

    id: Ident
    name: str = ""
    stages: list[Ident] = Field(min_length=2, max_length=16)
    """The stages, in the order the marker visits them."""
    start: Ident | None = None
    """The stage the marker starts on (the first without)."""


# ---- abilities: static modifiers and triggered hooks


class _Ability(Strict):
    id: Ident
    name: str = ""
    law: str = ""


class Rule(_Ability):
    """Who rules a clearing beyond Law 2.5's most warriors and buildings: you rule the
    clearings where you tie for the most if you have a piece there ('ties': Law 7.2.2,
    Lords of the Forest), and every clearing where you have any of these pieces, whoever
    has more ('with': Law 10.2.4, Pilgrims, which overrides another's 'ties'); your
    tokens count toward rule ('tokens': Soup Kitchens).
    'rule_ties' is the first spelling of ``{"kind": "rule", "ties": true}``."""

    # (A dump by field name, 'with_', reads back as well as the key 'with'.)
    model_config = ConfigDict(**Strict.model_config, populate_by_name=True)

    kind: Literal["rule", "rule_ties"]
    ties: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """Rule the clearings where you tie for the most and have a piece (true for
    'rule_ties')."""
    with_: list[Ident] = Field(default=[], alias="with", max_length=20,
                               json_schema_extra=ADDED_LATER)
    """Your pieces any one of which in a clearing makes you rule it (Law 10.2.4's
    gardens)."""
    tokens: int = Field(default=0, ge=0, le=10, json_schema_extra=ADDED_LATER)
    """Your tokens count toward rule (Law 2.5 counts warriors and buildings), each as
    this many pieces (the Exiles deck's Soup Kitchens: "Your tokens now count towards
    rule, and each of your tokens counts twice", 2); 0: they do not."""

    @model_validator(mode="after")
    def _says_something(self) -> Rule:
        if self.kind == "rule" and not self.ties and not self.with_ and not self.tokens:
            raise Err("VALUE-INVALID", ("ties",), "a 'rule' ability says how you rule: "
                      "'ties': true, 'with' pieces, or 'tokens' (what each counts), or "
                      "several")
        return self

    def rules_ties(self) -> bool:
        return self.ties or self.kind == "rule_ties"


# The numbers' first spellings, one ability kind each: the kind, its value's key, and
# the field of 'numbers' it went to.
NUMBER_KINDS: dict[str, tuple[str, str]] = {
    "item_vp": ("vp", "item_vp"),
    "recruit_count": ("count", "recruit"),
}


class Numbers(_Ability):
    """Numbers of the Law that are otherwise for the holder: the VP a crafted item
    scores ('item_vp', instead of the printed value: Law 7.2.3, Disdain for Trade; and
    'item_vp_extra' more: Master Engravers) and the warriors each recruit places
    ('recruit', instead of one: Law 7.8.2, Charismatic, read by the Decree's recruit
    column).  One ability may change several.  The first
    spellings, one number each, still read: ``item_vp`` (vp), ``recruit_count``
    (count)."""

    kind: Literal["numbers", "item_vp", "recruit_count"]
    item_vp: int | None = Field(default=None, ge=0, le=100)
    """VP each item the holder crafts scores (4.1.2), instead of the card's."""
    recruit: int | None = Field(default=None, ge=1, le=64)
    """Warriors each recruit of the Decree places."""
    item_vp_extra: int | None = Field(default=None, ge=1, le=100,
                                      json_schema_extra=ADDED_LATER)
    """VP more for each item the holder crafts, after 'item_vp' (the Exiles and Partisans
    deck's Master Engravers: "Whenever you craft an item, score one extra point"; Law
    14.2.3, Contempt for Trade: such extra points are scored even where an item scores
    none of its own)."""

    @model_validator(mode="before")
    @classmethod
    def _first_spellings(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("kind") not in NUMBER_KINDS:
            return data
        kind, data = data["kind"], {k: v for k, v in data.items() if k != "kind"}
        key, field = NUMBER_KINDS[kind]
        if key not in data:  # the first spelling's required value
            raise Err("KEY-MISSING", (key,), f"'{kind}' needs '{key}'")
        for other in ("item_vp", "recruit", "item_vp_extra"):
            if other in data:
                raise Err("KEY-UNKNOWN", (other,), f"'{kind}' is said with '{key}' alone, "
                          f"not '{other}' (or write kind 'numbers')")
        v = data[key]
        low, high = (0, 100) if kind == "item_vp" else (1, 64)
        if not (isinstance(v, int) and not isinstance(v, bool) and low <= v <= high):
            raise Err("VALUE-INVALID", (key,),
                      f"'{key}' is a whole number from {low} to {high}, not {v!r}")
        data[field] = data.pop(key)
        return {"kind": "numbers", **data}

    @model_validator(mode="after")
    def _says_something(self) -> Numbers:
        if not self.modifiers():
            raise Err("VALUE-INVALID", ("kind",), "a 'numbers' ability changes a number: "
                      "'item_vp', 'item_vp_extra' or 'recruit', or several")
        return self

    def modifiers(self) -> list[tuple[str, int]]:
        """The numbers this ability changes, as the core's ability kinds (one number
        each, their first spellings) with their values."""
        out: list[tuple[str, int]] = []
        if self.item_vp is not None:
            out.append(("item_vp", self.item_vp))
        if self.recruit is not None:
            out.append(("recruit_count", self.recruit))
        if self.item_vp_extra is not None:
            out.append(("item_vp_extra", self.item_vp_extra))
        return out


class ExclusivePlacement(_Ability):
    """No other faction may place pieces in the clearing holding this token (Law 6.2.2,
    the Keep; 13.7, the snare: "While a snare token is face up, enemy pieces cannot be
    placed in or moved from its clearing"), nor, with 'moves_from', move its warriors
    out of it."""

    kind: Literal["exclusive_placement"]
    token: Ident
    moves_from: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """Nor may another player's warriors be moved out of that clearing, by a move of
    theirs (Law 4.2) or one another makes them take (Law 13.7, the snare)."""

    def modifiers(self) -> list[tuple[str, int | None]]:
        """What this ability changes, as the core's ability kinds (one each)."""
        return [("exclusive_placement", None)] + \
            ([("exclusive_moves", None)] if self.moves_from else [])


class Moving(_Ability):
    """How moving (Law 4.2) goes otherwise for the holder: rivers are paths for it
    ('rivers_are_paths': Law 2.3, "rivers ... can be treated as paths if explicitly
    instructed"; 11.2.2, Swimmers; the Exiles and Partisans deck's Boat Builders), and
    moves that need no rule of the origin or the destination ('ignore_rule': 'always',
    13.2.3, Nimble, and Corvid Planners; 'rivers', along a river only, 11.2.2: "may move
    along rivers regardless of who rules"), and clearings with its crafting pieces
    adjacent ('crafting_adjacent': Tunnels).  Two such abilities of one holder (a
    faction's and a card's) both hold.  The links ('rivers_are_paths',
    'crafting_adjacent') are the holder's adjacency, "linked by a path" (Law 2.3), in
    every rule of its that reads adjacency, not only its moves: a filter's 'adjacent_to'
    (the Alliance's spread, Law 8.4.2), the clearings a payment's pieces come through
    (a build's wood, 6.5.4.II), a setup's clearings next to home.  'ignore_rule' is its
    moves' alone."""

    kind: Literal["moving"]
    rivers_are_paths: bool = False
    """Rivers are paths for the holder (Law 2.3): its moves, and its adjacency."""
    ignore_rule: Literal["never", "rivers", "always"] = "never"
    """Moves of the holder's that need no rule of origin or destination (Law 4.2):
    'always' (13.2.3, Nimble), 'rivers' only a move along a river (11.2.2, Swimmers)."""
    crafting_adjacent: bool = False
    """Any two clearings holding the holder's crafting pieces are adjacent for it, its
    moves and its other rules alike (the Exiles deck's Tunnels: "You treat clearings
    with any of your crafting pieces as adjacent")."""

    @model_validator(mode="after")
    def _says_something(self) -> Moving:
        if not self.modifiers():
            raise Err("VALUE-INVALID", ("kind",), "a 'moving' ability changes a move: "
                      "'rivers_are_paths': true, 'ignore_rule' ('always' or 'rivers'), "
                      "'crafting_adjacent': true, or several")
        return self

    def modifiers(self) -> list[tuple[str, int]]:
        """What this ability changes, as the core's ability kinds (one each)."""
        out: list[tuple[str, int]] = []
        if self.rivers_are_paths:
            out.append(("rivers_are_paths", 1))
        if self.ignore_rule != "never":
            out.append(("move_ignores_rule" if self.ignore_rule == "always"
                        else "river_move_ignores_rule", 1))
        if self.crafting_adjacent:
            out.append(("crafting_adjacent", 1))
        return out


class BattleAttacking(Strict):
    """What changes in the battles the holder initiates."""

    extra_hits: int = Field(default=0, ge=0, le=10)
    """Extra hits dealt (Law 4.3.5.I; 7.8.3, the Commander)."""
    ambush_ignored: bool = False
    """Ambush cards have no effect on the holder: the defender is not even asked (Law
    4.3.1; whoever holds it is public)."""
    holds: Condition | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The extra hits only in the battles where this holds as hits are counted (Law
    4.3.5), read of the battle clearing for the holder (Law 14.7.8, Wrathful: "As
    attacker in battle in your warlord's clearing, you deal an extra hit", ``{"here":
    {"has": "warlord"}}``)."""

    @model_validator(mode="after")
    def _holds_hits(self) -> BattleAttacking:
        return _hits_hold(self)


class BattleDefending(Strict):
    """What changes in the battles in which the holder defends."""

    deal_high_roll: bool = False
    """The holder deals hits equal to the higher roll and the attacker the lower (Law
    8.2.2, Guerrilla War)."""
    extra_hits: int = Field(default=0, ge=0, le=10, json_schema_extra=ADDED_LATER)
    """Extra hits dealt as defender (Law 4.3.5.I; 13.2.5, Embedded Agents: "As defender
    in battle, if the Corvids have a facedown plot token in the clearing of battle,
    they deal an extra hit")."""
    holds: Condition | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The extra hits only where this holds, as the attacker's 'holds'."""

    @model_validator(mode="after")
    def _holds_hits(self) -> BattleDefending:
        return _hits_hold(self)


def _hits_hold(side: Any) -> Any:
    if side.holds is not None and not side.extra_hits:
        raise Err("VALUE-INVALID", ("holds",), "'holds' says where the extra hits are "
                  "dealt: give 'extra_hits' too")
    return side


class BattleTaking(Strict):
    """What changes in the hits the holder takes, attacking or defending (Law 4.3.6)."""

    ignore_first: bool = False
    """The first hit the holder takes in each battle is ignored, an ambush's too (Law
    15.2.4, Devout Knights); with 'holds', only where that holds when the first hit
    comes (a later hit is never the first)."""
    holds: Condition | None = None
    """A condition read of the battle clearing, for the holder (its values take that
    clearing as 'the clearing': `{"pieces": "relic"}` there, `{"warriors": "self"}`)."""


# The battle modifiers' first spellings, one ability kind each: the kind, and the field
# of 'battle' its value went to (None: a flag without a value).
_BATTLE_KINDS: dict[str, tuple[str, str, str | None]] = {
    "attack_extra_hits": ("attacking", "extra_hits", "hits"),
    "ignore_ambush_as_attacker": ("attacking", "ambush_ignored", None),
    "defender_takes_high_roll": ("defending", "deal_high_roll", None),
}


class Battle(_Ability):
    """How battle (Law 4.3) goes otherwise for the holder: as attacker, as defender, and
    what removing enemy pieces in it scores.  One ability may change several steps.
    The first spellings, one modifier each, still read: ``attack_extra_hits`` (hits),
    ``ignore_ambush_as_attacker``, ``defender_takes_high_roll``, ``battle_removal_vp``
    (vp)."""

    kind: Literal["battle", "attack_extra_hits", "battle_removal_vp",
                  "defender_takes_high_roll", "ignore_ambush_as_attacker"]
    attacking: BattleAttacking | None = None
    defending: BattleDefending | None = None
    taking: BattleTaking | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The hits the holder takes, on either side (Law 15.2.4)."""
    removal_vp: int = Field(default=0, ge=0, le=100)
    """VP scored once per battle step in which the holder removes an enemy building or
    token (Law 7.8.4, the Despot: in battle only)."""

    @model_validator(mode="before")
    @classmethod
    def _first_spellings(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("kind") in (None, "battle"):
            return data
        kind, data = data["kind"], {k: v for k, v in data.items() if k != "kind"}
        if kind == "battle_removal_vp":
            if "vp" in data:
                data["removal_vp"] = data.pop("vp")
            else:  # the first spelling's required value
                raise Err("KEY-MISSING", ("vp",), "'battle_removal_vp' needs 'vp'")
            if not (isinstance(data["removal_vp"], int) and data["removal_vp"] >= 1):
                raise Err("VALUE-INVALID", ("vp",), "'vp' is a number of VP, at least 1")
        elif kind in _BATTLE_KINDS:
            side, field, value = _BATTLE_KINDS[kind]
            if value is None:
                data[side] = {field: True}
            elif value in data:
                v = data.pop(value)
                if not (isinstance(v, int) and not isinstance(v, bool) and v >= 1):
                    raise Err("VALUE-INVALID", (value,),
                              f"'{value}' is a number, at least 1")
                data[side] = {field: v}
            else:
                raise Err("KEY-MISSING", (value,), f"'{kind}' needs '{value}'")
        return {"kind": "battle", **data}

    @model_validator(mode="after")
    def _says_something(self) -> Battle:
        if not self.modifiers():
            raise Err("VALUE-INVALID", ("kind",), "a 'battle' ability changes something: "
                      "'attacking' (extra_hits, ambush_ignored), 'defending' "
                      "(deal_high_roll, extra_hits), 'taking' (ignore_first) or "
                      "'removal_vp'")
        return self

    def modifiers(self) -> list[tuple[str, int]]:
        """The modifiers this ability makes, as the core's ability kinds (one modifier
        each, their first spellings) with their values."""
        out: list[tuple[str, int]] = []
        if self.attacking is not None and self.attacking.extra_hits:
            # (under a condition: its own kind, the core's value its condition's)
            out.append(("attack_extra_hits" if self.attacking.holds is None
                        else "attack_hits_if", self.attacking.extra_hits))
        if self.removal_vp:
            out.append(("battle_removal_vp", self.removal_vp))
        if self.attacking is not None and self.attacking.ambush_ignored:
            out.append(("ignore_ambush_as_attacker", 1))
        if self.defending is not None and self.defending.deal_high_roll:
            out.append(("defender_takes_high_roll", 1))
        if self.taking is not None and self.taking.ignore_first:
            out.append(("ignore_first_hit", 1))  # (the core's value: its condition's)
        if self.defending is not None and self.defending.extra_hits:
            out.append(("defend_hits_if", self.defending.extra_hits))
        return out


Timing = Literal["start_of_birdsong", "start_of_daylight", "start_of_evening", "birdsong",
                 "daylight", "evening", "battle_before_roll", "battle_after_roll",
                 "end_of_birdsong", "end_of_daylight", "evening_draw"]
"""When a usable effect is offered.  'evening_draw': as the holder would draw cards in
its Evening (a step whose program only draws into the hand, Law 6.6.2, 7.6.2, 8.6.2), and
instead of that draw: used, the step's draw does not happen (the Exiles deck's
Informants, "In Evening, if you would draw cards, you may instead take one ambush card
from the discard pile").  'end_of_birdsong' and 'end_of_daylight': only as the
phase ends, after its last step (the Exiles deck's Eyrie Emigre, "At the end of Birdsong";
Law 14.7.4, the Lavish mood's "At the end of your Birdsong").  Evening has no end of its own:
once its last step begins, nothing but end-of-turn effects (Law 1.4.3)."""


def _menu_program_only(do: list) -> None:
    """An effect's or a trigger's program holds no part only a menu's program can: the
    value 'taken' (its action's uses this turn), a 'remove' of a 'count'."""
    for x in walk(do):
        if isinstance(x, TakenValue):
            raise Err("VALUE-INVALID", ("do",), "'taken' counts the uses of a menu's "
                      "program this turn: an effect's or a trigger's program has none")
        if isinstance(x, ChosenValue):
            raise Err("VALUE-INVALID", ("do",), "'chosen' reads the number a program's "
                      "second choice chose: an effect's or a trigger's program chooses none")
        if isinstance(x, RemovePart) and x.count != 1:
            raise Err("VALUE-INVALID", ("do",), "a 'remove' of a 'count' of your pieces is "
                      "a menu program's (a cost its listing checks)")


class Effect(_Ability):
    """A usable effect: at its timing the holder may (or, mandatory, must) carry out its
    program, once per turn (phase timings) or once per battle (battle timings).  Start
    of a phase: before everything else in it (Law 1.4.1); a phase: at any of the
    holder's decisions between actions in it, and as it ends; battle: before or after
    the roll (Law 4.3.2, 4.3.4), the attacker asked first."""

    kind: Literal["effect"]
    timing: Timing
    side: Literal["attacker", "defender", "any"] = "any"
    """Battle timings: which side of the battle may use it."""
    mandatory: bool = False
    """'You must' rather than 'you may': the phase cannot go on while it is unused."""
    cost: Literal["none", "discard", "exhaust_item"] = "none"
    """discard: using it discards the card that grants it (cards only).  exhaust_item:
    using it exhausts (flips face down) one face-up item of the holder's Crafted Items
    box, offered only while one is face up (the Exiles deck's League of Adventurous Mice:
    "you may exhaust an item in your Crafted Items box to take a move or initiate a
    battle"; the Vagabond exhausts items to act, Law 9.2.5).  Nothing refreshes such an
    item: the Law gives a Crafted Items box no refresh (the Vagabond's, Law 9.4.1, and
    the Knaves' Take It Easy, 18.6.3, are their own rules) and the card names none, so it
    stays face down.  Which item is the
    holder's to say, and no rule reads an exhausted item's kind, so the engine keeps a
    count of them."""
    target: Literal["none", "other_player", "other_player_with_cards", "own_warrior",
                    "clearing", "other_player_with_crafted",
                    "other_player_with_warriors"] = "none"
    """What the user chooses: another player (with cards in hand; with a crafted card in
    its play area, Law 4.1.3; with warriors on the map: the Exiles deck's False Orders),
    a clearing with one of their warriors, or any clearing."""
    do: list[EffectOp] = Field(min_length=1)
    """The effect program, run op by op."""
    when: Condition | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Offered only while this holds, read of the battle clearing as "the clearing"
    (battle timings only: the Exiles deck's Partisans, "In battle in fox clearings";
    Law 14.7.1, Bitter, "In battle in your warlord's clearing")."""

    @model_validator(mode="after")
    def _when_in_battle(self) -> Effect:
        _menu_program_only(self.do)
        if self.when is not None and not self.timing.startswith("battle_"):
            raise Err("VALUE-INVALID", ("when",), "'when' is read of the battle clearing: "
                      "only an effect of a battle timing ('battle_before_roll', "
                      f"'battle_after_roll') has one, not one of {self.timing!r}")
        return self


# Field Hospitals' first spelling (Law 6.2.3), an ability kind of its own: the trigger it
# is, but for its token (models.rescue_trigger).
RESCUE_KIND = "rescue_removed_warriors"
ENGINE_DECISIONS = ("march", "ambush", "foil", "remove", "trigger_cost", "pay", "place",
                    "craft_any", "phase_end", "phase_start", "battle_effects", "effect",
                    "react", "take_actions", "zone_pay", "zone_give", "zone_trim",
                    "react_order", "defender", "then", "choice", "draw_instead", "take",
                    "program", "end_of_turn", "end_of_phase")
"""The decisions the engine names (its frames, generator/tables.py FRAME_KINDS, 'take'
(a card of the discard pile, asked as a give is), and the scenario stops): a trigger's
'verb' names its decision, so it is none of these."""


class Trigger(_Ability):
    """An automatic reaction of the holder's: when its event happens, the program runs
    (after the event, Law 1.5.4: every piece removed at once is removed first).  With a
    cost ('you may spend a card matching their clearing', Law 6.2.3, Field Hospitals) the
    holder is asked instead, and the program runs once the cost is paid.
    ``rescue_removed_warriors`` (with its 'token') is the first spelling of Field
    Hospitals: this trigger, on the holder's warriors removed from a clearing, paid with
    a card matching it, placing them in the clearing of the token
    (models.rescue_trigger)."""

    kind: Literal["trigger", "rescue_removed_warriors"]
    on: Literal["pieces_removed", "warriors_moved_in", "item_crafted"]
    """pieces_removed: some of your 'pieces' were removed from a clearing;
    warriors_moved_in: warriors moved into a clearing holding your 'token'; item_crafted:
    a player crafted an item (Law 4.1.2; the Exiles deck's Murine Broker, "Whenever
    another player crafts an item, draw a card"), the program's clearing none."""
    pieces: list[Ident] = []
    """pieces_removed: which of your pieces ('warrior': the holder's warriors, whoever
    holds it, a card's holder too)."""
    token: Ident | None = None
    """warriors_moved_in: the token the clearing must hold."""
    by: Literal["enemy", "any"] = "enemy"
    """Whose removal, move or craft counts: another player's only, or anyone's."""
    whose: Literal["holder", "any"] = Field(default="holder", json_schema_extra=ADDED_LATER)
    """pieces_removed: whose pieces: the holder's ('pieces' of its own), or any player's
    ('pieces' ["warrior"]: every player's warriors, the holder's too; the Exiles deck's
    Coffin Makers, "Whenever any warriors would return to a supply")."""
    actor: Literal["self", "other"] = "self"
    """Who carries out the program: you, or the player who removed, moved or crafted."""
    in_battle: Literal["defending", "attacking"] | None = Field(
        default=None, json_schema_extra=ADDED_LATER)
    """pieces_removed: only pieces removed in a battle in which you are this side (Law
    10.2.3, Revenge: 'removed while defending in battle'); any removal without."""
    cost: Literal["none", "card"] = Field(default="none", json_schema_extra=ADDED_LATER)
    """card: 'you may spend a card matching the clearing' (birds too, Law 2.1.1): the
    actor is asked, whenever it has a card and the program can do something (public facts:
    what the hand holds is not), which matching card it spends, or 'done' to let the
    program go; Law 6.2.3, Field Hospitals."""
    verb: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The name of the decision a cost asks (the Marquise's 'rescue'); the trigger's id
    without."""
    per_piece: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """pieces_removed: the program runs once for each piece removed, and its parts name
    that piece 'piece' (Law 15.2.5, Prized Trophies: "Whenever an enemy removes a relic,
    they place it in any forest face up"); without, once for the pieces removed from
    each clearing."""
    do: list[EffectOp] = Field(min_length=1)

    @model_validator(mode="after")
    def _cost_paid_by_the_holder(self) -> Trigger:
        _menu_program_only(self.do)
        if self.on == "item_crafted":
            for key, given in (("pieces", self.pieces), ("token", self.token),
                               ("in_battle", self.in_battle)):
                if given:
                    raise Err("VALUE-INVALID", (key,), f"a trigger on 'item_crafted' has "
                              f"no {key!r}: it reacts to any item crafted (by another "
                              "player, or, 'by': 'any', by anyone)")
        if self.whose == "any" and (self.on != "pieces_removed" or
                                    self.pieces != ["warrior"] or self.cost != "none" or
                                    self.in_battle is not None or self.by != "any" or
                                    not self.per_piece):
            raise Err("VALUE-INVALID", ("whose",), "'whose': 'any' reacts to each of any "
                      "player's warriors removed, by anyone: 'on' pieces_removed, 'pieces' "
                      "[\"warrior\"], 'by' any, 'per_piece' true (each warrior has its "
                      "owner and its remover), no 'cost' and no 'in_battle'")
        if self.cost != "none" and self.actor != "self":
            raise Err("VALUE-INVALID", ("cost",), "a trigger's cost is paid by its holder, "
                      "who carries out its program: 'actor' is 'self' with a 'cost'")
        if self.cost != "none" and self.on != "pieces_removed":
            raise Err("VALUE-INVALID", ("cost",), "a trigger with a cost reacts to pieces "
                      "removed ('on': 'pieces_removed'; Law 6.2.3)")
        if self.per_piece and (self.on != "pieces_removed" or self.cost != "none"):
            raise Err("VALUE-INVALID", ("per_piece",), "'per_piece' runs the program for "
                      "each piece removed: a trigger on 'pieces_removed' without a cost")
        if self.per_piece and any(isinstance(x, EventPieces) for x in walk(self.do)):
            raise Err("VALUE-INVALID", ("per_piece",), "a trigger with 'per_piece' runs for "
                      "one piece at a time: its program names it 'piece', and has no "
                      "{'event': 'pieces'} to count")
        if self.verb is not None and self.cost == "none":
            raise Err("VALUE-INVALID", ("verb",), "'verb' names the decision a cost asks: "
                      "a trigger without a 'cost' asks nothing")
        if self.verb in (*ENGINE_DECISIONS, *ENGINE_STEP_OPS, *STEP_FIRST_SPELLINGS):
            raise Err("VALUE-INVALID", ("verb",), f"'verb' names the decision its cost "
                      f"asks, and {self.verb!r} is one of the engine's: another name")
        return self

    @model_validator(mode="before")
    @classmethod
    def _first_spelling(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("kind") != RESCUE_KIND:
            return data
        extra = sorted(set(data) - {"kind", "id", "name", "law", "token"})
        if extra:
            raise Err("KEY-UNKNOWN", (extra[0],), f"'{RESCUE_KIND}' takes 'token' (the "
                      f"clearing its warriors go to), not {extra[0]!r} (or write a "
                      "'trigger')")
        for key in ("id", "token"):
            if key not in data:
                raise Err("KEY-MISSING", (), f"'{RESCUE_KIND}' needs '{key}'" +
                          (" (the clearing its warriors go to)" if key == "token" else ""))
        if not isinstance(data["token"], str):
            raise Err("VALUE-INVALID", ("token",), f"'token' is a piece's id, not "
                      f"{data['token']!r}")
        return rescue_trigger(data["token"], id=data["id"], name=data.get("name", ""),
                              law=data.get("law", ""))

    def rescue_token(self) -> str | None:
        """The token, where this trigger is exactly what rescue_removed_warriors said
        (its first spelling: the rules hash writes it so)."""
        do = self.do[0] if len(self.do) == 1 else None
        if not (isinstance(do, PlacePart) and isinstance(do.at, AtEachClearing) and
                isinstance(do.at.each_clearing.has, str)):
            return None
        token = do.at.each_clearing.has
        first = Trigger.model_validate(rescue_trigger(token, id=self.id, name=self.name,
                                                      law=self.law))
        return token if self == first else None


def rescue_trigger(token: str, **ids: Any) -> dict:
    """Law 6.2.3 as a trigger: whenever the holder's warriors are removed from a clearing
    (by anyone), it may spend a card matching it to place them in the clearing holding
    the token (as far as the supply allows: they were just removed)."""
    return {"kind": "trigger", **ids, "on": "pieces_removed", "pieces": ["warrior"],
            "by": "any", "cost": "card", "verb": "rescue",
            "do": [{"op": "place", "piece": "warrior", "count": {"event": "pieces"},
                    "at": {"each_clearing": {"has": token}}}]}


class Offer(_Ability):
    """What the holder offers every other player: on its own turn, at any of its
    decisions between actions where its anytime effects are offered, and as its Evening
    starts (Law 1.4.1; not once its last step has begun, 1.4.3), another player may
    carry out the program 'use' names, as its actor, any number of times (Law 13.2.4,
    Exposure: "Any number of times on their turn, an enemy ... may show the Corvids a
    matching card to guess").  Its first choice is the action; 'holder' in its parts is
    the offerer, whose pieces its names are.  The offerer is not asked: the choice is
    the taker's.  Whether a window opens for it reads public facts only (a clearing
    passing its first choice's filter; a hand not empty, when it chooses a card), so
    the options may read the taker's hand, which is its own to know."""

    kind: Literal["offer"]
    use: ProgramEntry
    """The program, by name ('action'), its other fields binding its parameters, as a
    menu entry's do (the holder's pieces: 'token': 'plot')."""


Ability = Annotated[
    (
        Rule | Numbers | Battle | ExclusivePlacement | Moving | Effect | Trigger | Offer
    ),
    Field(discriminator="kind"),
]


# ---- action menu entries (inside an 'actions' step)


class BattleAction(Strict):
    """Initiate a battle (Law 4.3)."""

    action: Literal["battle"]
    suit_of: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Only in clearings of the suit one of the faction's cycles' markers is on (each of
    its stages a suit): Law 10.4.3, Crusade, 'initiate a battle in an Outcast clearing'."""
    cost: IntoBoxPart | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Paid as the action is taken, offered only while it can be: warriors of one of the
    faction's boxes back to the supply (the part into_box, 'from_box': Law 10.4.3,
    'spend two acolytes')."""
    when: Condition | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Offered only while this holds, read as the menu is offered (Law 12.5.2, the
    Duchy's Parliament: "take the action of each swayed minister", the Captain's battle
    only while the Captain is swayed); a condition of the faction's own places, pieces,
    boxes and cycles, which reads no chosen clearing, card or piece (none is chosen yet).
    A turn step's menu entry's."""

    @model_validator(mode="after")
    def _when_of_nothing_chosen(self) -> BattleAction:
        _menu_when_reads_nothing_chosen(self.when)
        _menu_when_reads_nothing_chosen(self.cost, "cost")
        return self


class MarchAction(Strict):
    """Take up to this many moves (Law 4.2)."""

    action: Literal["march"]
    moves: int = Field(default=2, ge=1, le=10)
    suit_of: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Only from clearings of the suit one of the faction's cycles' markers is on (Law
    10.4.3, Crusade: 'move from an Outcast clearing'); one move ('moves': 1)."""
    cost: IntoBoxPart | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Paid as the first move is taken (see the battle entry's)."""
    then_battle: bool | Literal["must"] = Field(default=False, json_schema_extra=ADDED_LATER)
    """After the move, the mover may initiate a battle in the clearing moved into (Law
    10.4.3, Crusade: 'and then, if you wish, initiate a battle in the destination
    clearing'); one move ('moves': 1).  'must': the battle is not declined while one can
    be initiated there (the Exiles deck's Eyrie Emigre: "take a move, then initiate a
    battle in the clearing you moved into")."""
    when: Condition | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Offered only while this holds (see the battle entry's: Law 12.5.2, the Marshal's
    move only while the Marshal is swayed); read as the menu is offered, so a march's
    later moves are the same action's."""

    @model_validator(mode="after")
    def _when_of_nothing_chosen(self) -> MarchAction:
        _menu_when_reads_nothing_chosen(self.when)
        _menu_when_reads_nothing_chosen(self.cost, "cost")
        return self


def _menu_when_reads_nothing_chosen(when: Any, key: str = "when") -> None:
    """A menu entry's 'when' (or its cost's count) is read before anything is chosen:
    VALUE-INVALID, located, at the first of its parts that reads a chosen clearing, card
    or piece, an event or a program's own count."""
    if when is not None:
        for at, why in reads_chosen(when, (key,)):
            raise Err("VALUE-INVALID", at, f"a menu entry's '{key}' is read before "
                      f"anything is chosen, and this reads {why}")


_READS_CHOSEN = {"Here": "the chosen clearing", "WarriorsAt": "the chosen clearing",
                 "PiecesAt": "the chosen clearing", "Hides": "a guess in the chosen clearing",
                 "Did": "what an effect's actions did", "OfSuit": "the chosen clearing or card",
                 "EventPieces": "a trigger's event", "ValueOf": "the chosen piece",
                 "TakenValue": "a program's own count",
                 "ChosenValue": "the number a second choice chose"}


def reads_chosen(x: Any, at: tuple) -> Iterator[tuple[tuple, str]]:
    """(where, what) of each part of a condition or value that reads something chosen
    (a clearing, card or piece), an event, or a program's count; a clearing filter's
    'holds' reads the clearing it tests, which is none of those."""
    if isinstance(x, BaseModel):
        why = _READS_CHOSEN.get(type(x).__name__)
        if isinstance(x, TrackCost) and x.track_cost == "piece":
            why = "the chosen piece"
        if isinstance(x, BoxValue) and x.box == "piece":
            why = "the chosen piece's box"
        if isinstance(x, ClearingFilter):
            for key in ("suit", "adjacent_to"):
                if getattr(x, key) == "clearing":
                    yield (*at, key), "the chosen clearing"
            if x.adjacent_to_forest is not None:
                yield (*at, "adjacent_to_forest"), "the chosen forest"
        if why is not None:
            yield at, why
            return
        for name, info in type(x).model_fields.items():
            if isinstance(x, ClearingFilter) and name == "holds":
                continue
            yield from reads_chosen(getattr(x, name), (*at, info.alias or name))
    elif isinstance(x, (list, tuple)):
        for k, v in enumerate(x):
            yield from reads_chosen(v, (*at, k))


class CraftAction(Strict):
    """Craft cards by activating crafting pieces (Law 4.1), as one entry of a menu:
    for factions that craft in any order with their other actions (Law 8.5)."""

    action: Literal["craft"]


ENGINE_MENU_ACTIONS = ("battle", "march", "craft")
"""Menu entries that are the general Law's own actions (its routines, Law 4.1-4.3); every
other 'action' names a program."""


class ProgramEntry(BaseModel):
    """A menu entry that runs a program of the bundle's libraries by name: its 'action'
    is the program's name, its other fields bind the program's parameters (a piece's or a
    zone's id, a list of pieces' ids, a whole number; null leaves one out).  What they
    must be is the program's to say (``Program.params``), so validation checks them at
    each use (PROGRAM-REF, PROGRAM-USE), located at the entry."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True,
                              strict=True)
    __pydantic_extra__: dict[str, ParamValue]  # type: ignore[assignment]

    # (in the JSON Schema, not one of the Law's own actions: a menu entry is one of them
    # or this, never both)
    action: ProgramName = Field(
        json_schema_extra={"not": {"enum": list(ENGINE_MENU_ACTIONS)}})
    """The program's name (``standard`` library: mobilize, train, revolt, ...)."""

    def fields(self) -> dict[str, ParamValue]:
        """The fields that bind the program's parameters, as written."""
        return dict(self.model_extra or {})


def _check_menu_where(f: Any, m: Any, at: tuple, box_ids: list[str]) -> None:
    """A battle's or march's 'suit_of' names a cycle of the faction whose stages are
    suits (a march's of one move), its 'cost' returns warriors of one of its boxes."""
    if not isinstance(m, (BattleAction, MarchAction)):
        return
    if m.suit_of is not None:
        cycle = next((c for c in f.cycles if c.id == m.suit_of), None)
        if cycle is None:
            raise Err("REF-UNDEF", (*at, "suit_of"),
                      f"{m.action}: {unknown('cycle', m.suit_of, [c.id for c in f.cycles])}")
        if any(x not in ("fox", "rabbit", "mouse") for x in cycle.stages):
            raise Err("CYCLE-STAGE", (*at, "suit_of"),
                      f"{m.action}: cycle {cycle.id}'s stages are not suits "
                      f"({', '.join(cycle.stages)}): its stage names no clearing suit")
        if isinstance(m, MarchAction) and m.moves != 1:
            raise Err("VALUE-INVALID", (*at, "moves"),
                      "march: a march from the clearings of a cycle's suit is one move "
                      "('moves': 1)")
    if isinstance(m, MarchAction) and m.then_battle and m.moves != 1:
        raise Err("VALUE-INVALID", (*at, "moves"),
                  "march: a move followed by a battle in its destination is one move "
                  "('moves': 1)")
    if m.cost is not None:
        c = m.cost
        if not c.from_box or c.who != "self" or not c.require:
            raise Err("VALUE-INVALID", (*at, "cost"),
                      f"{m.action}: a cost is warriors of one of your boxes returned to "
                      "the supply: into_box with 'from_box': true")
        if c.box not in box_ids:
            raise Err("REF-UNDEF", (*at, "cost", "box"),
                      f"{m.action}: {unknown('box', c.box, box_ids)}")
        if c.piece != "warrior" and c.piece not in f.pieces:
            raise Err("REF-UNDEF", (*at, "cost", "piece"),
                      f"{m.action}: {unknown('piece', c.piece, list(f.pieces))}")


def crafting_pieces(f: Any) -> list[str]:
    """The pieces that craft for a faction (its crafting_piece, one or several)."""
    cp = f.crafting_piece
    return list(cp.among) if isinstance(cp, CraftingPieces) else [cp] if cp else []


def walk(obj: Any) -> Iterator[BaseModel]:
    """Every model in a document or a part of one (obj itself first), depth first in
    field order, through lists, tuples and dicts."""
    if isinstance(obj, BaseModel):
        yield obj
        for name in type(obj).model_fields:
            yield from walk(getattr(obj, name))
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from walk(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from walk(v)


def use_fields(entry: ProgramEntry | ProgramStep | ColumnWay) -> dict[str, Any]:
    """The fields a use of a program (a menu entry, a step or a column) gives its
    parameters, as written (``Program.bind`` fills in the defaults)."""
    return entry.fields()


def _menu_tag(v: Any) -> str:
    action = v.get("action") if isinstance(v, dict) else getattr(v, "action", None)
    return action if action in ENGINE_MENU_ACTIONS else "program"


MenuAction = Annotated[
    Annotated[BattleAction, Tag("battle")] | Annotated[MarchAction, Tag("march")] |
    Annotated[CraftAction, Tag("craft")] |
    Annotated[ProgramEntry, Tag("program")],
    Discriminator(_menu_tag),
]


# ---- effect ops: the programs of effects, triggers and immediate cards
#
# "self" is the player carrying out the program (the user of an effect, the crafter of
# an immediate card, a trigger's actor); "target" the player the user chose; "opponent"
# the other side of the battle (battle timings only).  An effect program also holds the
# program parts that score, lose VP, draw, remove and discard (EFFECT_PARTS, below).


class HitsOp(Strict):
    """In battle, the hits go otherwise for the one carrying out the program: it deals
    'extra' hits, which ignore the rolled-hits cap (Law 4.3.5.I: Sappers, Brutal
    Tactics), or it ignores every rolled hit it would take ('ignore_rolled', Law
    4.3.5.III: Armorers), or both.  The first spellings, one each, still read:
    ``extra_hits`` (hits, 1 unless given), ``ignore_rolled_hits``."""

    op: Literal["hits", "extra_hits", "ignore_rolled_hits"]
    extra: int = Field(default=0, ge=0, le=10)
    """Extra hits dealt."""
    ignore_rolled: bool = False
    """Ignore every rolled hit taken (extra hits still count)."""

    @model_validator(mode="before")
    @classmethod
    def _first_spellings(cls, data: Any) -> Any:
        if not isinstance(data, dict) or data.get("op") not in ("extra_hits",
                                                                 "ignore_rolled_hits"):
            return data
        op, data = data["op"], {k: v for k, v in data.items() if k != "op"}
        for new in ("extra", "ignore_rolled"):
            if new in data:
                raise Err("KEY-UNKNOWN", (new,), f"'{op}' is said "
                          + ("with 'hits'" if op == "extra_hits" else "alone")
                          + f", not with '{new}' (or write op 'hits')")
        if op == "extra_hits":
            hits = data.pop("hits", 1)
            if not (isinstance(hits, int) and not isinstance(hits, bool)
                    and 1 <= hits <= 10):
                raise Err("VALUE-INVALID", ("hits",),
                          f"'hits' is a number of hits, from 1 to 10, not {hits!r}")
            data["extra"] = hits
        else:
            data["ignore_rolled"] = True
        return {"op": "hits", **data}

    @model_validator(mode="after")
    def _says_something(self) -> HitsOp:
        if not self.extra and not self.ignore_rolled:
            raise Err("VALUE-INVALID", ("op",), "a 'hits' op changes the hits: 'extra' "
                      "(a number of hits dealt) or 'ignore_rolled': true, or both")
        return self

    def first_spelling(self) -> dict | None:
        """The op it was first written as, when it says one thing only."""
        if self.extra and not self.ignore_rolled:
            return {"op": "extra_hits", "hits": self.extra}
        if self.ignore_rolled and not self.extra:
            return {"op": "ignore_rolled_hits"}
        return None


class Actions(Strict):
    """Take actions from a menu; each card of extra_action_suit spent adds one. A turn
    step, and an effect program's part (a card's 'take more actions': a number of them,
    or 'done'; battles it starts run in full before the program goes on)."""

    op: Literal["actions", "take_actions"]
    count: ActionCount
    """How many: a number, one per warrior in a box (read as each action is taken, so
    warriors lost from the box mid-step end it sooner), or null for any number, ending
    with 'done'. In an effect program: a number, 1 to 10 (EFFECT-ACTIONS)."""
    extra_action_suit: Suit | None = None
    """Spending a card of this suit adds an action (Law 6.5); only with a numeric count,
    in a step (EFFECT-ACTIONS)."""
    menu: list[MenuAction]
    """The actions offered (an effect program's: at least one, EFFECT-ACTIONS)."""
    must: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """An effect program's: the actions are taken while one can be, with no 'done' (the
    Exiles deck's Eyrie Emigre: "take a move"); only with entries that spend no hand
    card, so whether 'done' is offered reads public facts only (EFFECT-ACTIONS)."""

    @model_validator(mode="before")
    @classmethod
    def _old_spelling(cls, data: Any) -> Any:
        # An effect program's 'take_actions' (its first spelling) is this part; its
        # count was 1 unless given.
        if isinstance(data, dict) and data.get("op") == "take_actions":
            data = {"count": 1, **data, "op": "actions"}
        return data

    @model_validator(mode="after")
    def _extra(self) -> Actions:
        if self.extra_action_suit is not None and not isinstance(self.count, int):
            raise Err("VALUE-INVALID", ("extra_action_suit",),
                      "extra actions need a numeric 'count' (not a box or any number)")
        return self


class DiscardDownTo(Strict):
    """Discard cards of your choice down to a limit: a turn step's, the hand down to
    'limit' (five, in each base faction's Evening); an effect program's, one of the
    holder's zones down to its capacity while that is in force (none of the buildings
    that lift it on the map: Law 8.2.4, the supporters stack once the last base is
    gone).  In an effect program it was first written 'trim_zone', with its 'zone'."""

    op: Literal["discard_down_to", "trim_zone"]
    limit: int = Field(default=5, ge=0, le=100)
    """A step's: the hand limit."""
    zone: Ident | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """An effect program's: the holder's zone (its capacity is the limit)."""

    @model_validator(mode="before")
    @classmethod
    def _old_spelling(cls, data: Any) -> Any:
        # An effect program's 'trim_zone' (its first spelling) is this operation.
        if isinstance(data, dict) and data.get("op") == "trim_zone":
            data = {**data, "op": "discard_down_to"}
        return data


ZONE_OPS = (DiscardDownTo,)
"""Effect ops on the holder's zones and boxes: a faction's abilities only (a card has
none; EFFECT-ZONE)."""


# ---- steps: turn, setup and hook programs


class PlaceAtBuildings(Strict):
    """Place one piece in the clearing of each of your buildings of a type."""

    op: Literal["place_at_buildings"]
    piece: Ident
    building: Ident


class Craft(Strict):
    """Craft cards by activating crafting pieces (Law 4.1)."""

    op: Literal["craft"]


class AddToColumns(Strict):
    """Add between min and max hand cards to your columns, at most max_bird birds, the
    columns holding at most max_total cards in all; or, with 'shift', move one card from
    one column to another instead (Law 7.4.2; 15.6.2, Gather Retinue: 'you may add any
    number of cards ... or you may shift one card in your Retinue to a different
    slot')."""

    op: Literal["add_to_columns"]
    min: int = Field(default=1, ge=0, le=10)
    max: int | None = Field(default=2, ge=1, le=10)
    """At most this many (null: any number, Law 15.6.2)."""
    max_bird: int | None = Field(default=1, ge=0, le=10)
    """At most this many birds among them (null: no limit)."""
    max_total: int | None = Field(default=None, ge=1, le=100, json_schema_extra=ADDED_LATER)
    """The cards every column holds together, at most (Law 15.6.2: ten); null: no limit."""
    shift: bool = Field(default=False, json_schema_extra=ADDED_LATER)
    """Instead of adding, the player may move one card from a column to another (Law
    15.6.2), the step then over: offered until a card is added."""

    @model_validator(mode="after")
    def _bounds(self) -> AddToColumns:
        if self.max is not None and self.min > self.max:
            raise Err("VALUE-INVALID", ("min",),
                      f"add_to_columns: 'min' {self.min} is more than 'max' {self.max}")
        return self


class ResolveColumns(Strict):
    """Resolve every card in every column, left to right, each as its column's action in
    a clearing matching the card; if one cannot be resolved, run a hook (Law 7.5.2, 7.7:
    turmoil).  Without a hook the cards are the player's to take or leave (Law 15.5.2,
    the Keepers' Retinue): 'done' leaves the column's cards left unresolved and goes on
    to the next column, and a column none of whose cards can be resolved is passed."""

    op: Literal["resolve_columns"]
    on_fail: Ident | None = None
    """The hook run when a card cannot be resolved; null: the cards are optional."""


class ChooseRole(Strict):
    """Choose a role among the face-up ones; retire the current one (its faction cards
    back to the reserve); when none is face up, turn all face up first; then carry out
    the program 'then' (Law 7.3.4, 7.7.3: the new leader's Loyal Viziers tucked into the
    columns it shows, the standard 'tuck_role_cards')."""

    op: Literal["choose_role"]
    then: ProgramName | None = Field(default="tuck_role_cards", json_schema_extra=ADDED_LATER)
    """A program of the libraries carried out once the role is taken, for the player
    (one that chooses nothing and takes no parameter: PROGRAM-USE); null: none.  The
    standard 'tuck_role_cards' is a 'tuck' into the columns the role names."""


class StopPart(Strict):
    """Stop here: what comes after it in its list is not carried out.  In a program, the
    action ends: the parts after it are not carried out, and a repeated choice is not
    asked again (Law 15.5.2, Recover: "you must end this Recover action"); the parts
    after a second choice that repeats may hold it (inside an 'if').  As a step, the
    phase ends at once: the steps after it are not carried out, nor, in a hook, the
    rest of the phase the hook was run from, and the next phase begins (Law 7.7.4,
    turmoil's Rest: "End Daylight and begin Evening").  As a step it was first written
    'end_phase'."""

    op: Literal["stop", "end_phase"]

    @model_validator(mode="before")
    @classmethod
    def _old_spelling(cls, data: Any) -> Any:
        # A step's 'end_phase' (its first spelling) is this operation.
        if isinstance(data, dict) and data.get("op") == "end_phase":
            data = {**data, "op": "stop"}
        return data


class SetupBuildingsNearHome(Strict):
    """Place one of each listed building in your home clearing or adjacent ones."""

    op: Literal["setup_buildings_near_home"]
    buildings: list[Ident]


class RunStage(Strict):
    """Run the hook that your cycle's current stage names (none for a stage not named),
    then go on with the step after this one."""

    op: Literal["run_stage"]
    cycle: Ident
    """One of the faction's 'cycles'."""
    hooks: dict[Ident, Ident] = Field(min_length=1)
    """Stage -> the hook run while the cycle is at that stage."""




ENGINE_STEP_OPS = ("place_at_buildings", "craft", "actions", "discard_down_to",
                   "add_to_columns", "resolve_columns", "choose_role",
                   "stop", "setup_buildings_near_home",
                   "run_stage")
"""Steps that are the engine's own routines (the general Law's, and the ones not yet
written as programs); every other 'op' names a program (ProgramStep)."""

STEP_FIRST_SPELLINGS = {"end_phase": "stop"}
"""Engine steps' first spellings, each read as the step it is now (no program may be
named so either)."""


class ProgramStep(BaseModel):
    """A step that runs a program of the bundle's libraries when it is entered: its 'op'
    is the program's name, its other fields bind the program's parameters, as a menu
    entry's do (a parameter with a default may be left out). What they must be is the
    program's to say, so validation checks them at each use (PROGRAM-REF, PROGRAM-USE),
    located at the step; the program chooses nothing (a step offers no options)."""

    model_config = ConfigDict(extra="allow", frozen=True, use_attribute_docstrings=True,
                              strict=True)
    __pydantic_extra__: dict[str, ParamValue]  # type: ignore[assignment]

    # (in the JSON Schema, not one of the engine's own steps: a step is one of them or
    # this, never both)
    op: ProgramName = Field(json_schema_extra={"not": {"enum": [*ENGINE_STEP_OPS,
                                                                  *STEP_FIRST_SPELLINGS]}})
    """The program's name (``standard`` library: draw, score_track, draw_to_zone, ...)."""

    def fields(self) -> dict[str, ParamValue]:
        """The fields that bind the program's parameters, as written."""
        return dict(self.model_extra or {})


def _step_tag(v: Any) -> str | None:
    # (None, for what has no 'op': the loader says a step needs one, naming the steps)
    if isinstance(v, dict):
        if "op" not in v:
            return None
        op = v["op"]
    elif isinstance(v, BaseModel) and "op" in type(v).model_fields:
        op = v.op  # type: ignore[attr-defined]
    else:
        return None
    if isinstance(op, str) and op in STEP_FIRST_SPELLINGS:
        return STEP_FIRST_SPELLINGS[op]
    return op if op in ENGINE_STEP_OPS else "program"


Step = Annotated[
    Annotated[PlaceAtBuildings, Tag("place_at_buildings")] | Annotated[Craft, Tag("craft")] |
    Annotated[Actions, Tag("actions")] | Annotated[DiscardDownTo, Tag("discard_down_to")] |
    Annotated[AddToColumns, Tag("add_to_columns")] |
    Annotated[ResolveColumns, Tag("resolve_columns")] |
    Annotated[ChooseRole, Tag("choose_role")] | Annotated[StopPart, Tag("stop")] |
    Annotated[SetupBuildingsNearHome, Tag("setup_buildings_near_home")] |
    Annotated[RunStage, Tag("run_stage")] |
    Annotated[ProgramStep, Tag("program")],
    Discriminator(_step_tag),
]


class Turn(Strict):
    birdsong: list[Step] = []
    daylight: list[Step] = []
    evening: list[Step] = []


class CraftingPieces(Strict):
    """Several pieces that craft, each paying its clearing's suit (Law 4.1); with
    'suit_of', only those whose printed suit is the stage a cycle's marker is on (Law
    10.2.1: the Cult activates the gardens whose printed suit matches the Outcast)."""

    among: list[Ident] = Field(min_length=1, max_length=8)
    """The pieces (buildings or tokens)."""
    suit_of: Ident | None = None
    """One of the faction's 'cycles', each of its stages a suit (fox, rabbit, mouse)."""


class FactionSpec(Strict):
    kind: Literal["faction"]
    id: Ident
    name: str
    law: str = ""
    """The Law section of the faction."""
    setup_order: int = Field(ge=0, le=100)
    """Setup letter order (Law 5.1.7): lower sets up first."""
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")
    """Drawing only: the faction's colour in pictures ('#rrggbb'); without one, a colour
    is derived from the faction id."""
    reach: int | None = Field(default=None, ge=0, le=100)
    """The faction's reach (Law 5.2.2): how much of the Woodland it contests.  A table
    whose reach adds up to less than Law 5.2.1's viable sum is warned about."""
    pieces: dict[Ident, Piece]
    crafting_piece: Annotated[
        Annotated[Ident, Tag("crafting-piece")] |
        Annotated[CraftingPieces, Tag("crafting-pieces")],
        Discriminator(lambda v: "crafting-piece" if isinstance(v, str) else "crafting-pieces"),
    ] | None = None
    """The piece that crafts (Law 4.1), or several ('among'), of a cycle's suit only."""
    zones: list[Zone] = []
    """Named piles of the faction's cards apart from its hand."""
    boxes: list[Box] = []
    """Named holders of the faction's warriors off the map."""
    abilities: list[Ability] = []
    cards: list[FactionCard] = []
    columns: list[Column] = []
    roles: list[Role] = []
    setup: list[Step]
    turn: Turn
    hooks: dict[Ident, list[Step]] = {}
    cycles: list[Cycle] = []
    """Markers going round rings of stages ('run_stage', 'advance_cycle')."""

    @model_validator(mode="before")
    @classmethod
    def _first_spelling_refs(cls, data: Any) -> Any:
        # Field Hospitals written as its first spelling names its token at 'token' (the
        # trigger it reads as would name it deep in its program, where the author wrote
        # nothing): an unknown one is told there.
        if not isinstance(data, dict) or not isinstance(data.get("pieces"), dict) or \
                not isinstance(data.get("abilities"), list):
            return data
        for i, a in enumerate(data["abilities"]):
            if isinstance(a, dict) and a.get("kind") == RESCUE_KIND and \
                    isinstance(a.get("token"), str) and a["token"] not in data["pieces"]:
                raise Err("REF-UNDEF", ("abilities", i, "token"),
                          f"ability {a.get('id')}: "
                          f"{unknown('piece', a['token'], list(data['pieces']))}")
        return data

    @model_validator(mode="after")
    def _references(self) -> FactionSpec:
        pieces = self.pieces
        warriors = [k for k, p in pieces.items() if p.kind == "warrior"]
        if len(warriors) != 1:
            raise Err("VALUE-INVALID", ("pieces",), "a faction has exactly one warrior piece")

        def need(name: str, loc: tuple, where: str) -> None:
            # References only; the kind a field takes is a semantic check (PIECE-KIND).
            if name not in pieces:
                raise Err("REF-UNDEF", loc, f"{where}: {unknown('piece', name, pieces)}")

        for pid, pc in pieces.items():
            for j, x in enumerate(pc.reveals):
                need(x, ("pieces", pid, "reveals", j), f"piece {pid}")
                if pieces[x].kind != pc.kind or pieces[x].reveals:
                    raise Err("VALUE-INVALID", ("pieces", pid, "reveals", j),
                              f"piece {pid}: it turns over to {x!r}, which must be a "
                              f"{pc.kind} lying face up (with no 'reveals' of its own)")
        faced = [pid for pid, pc in pieces.items() if pc.faces]
        for pid in faced:
            pc = pieces[pid]
            at = ("pieces", pid, "faces")
            for j, x in enumerate(pc.faces):
                need(x, at + (j,), f"piece {pid}")
                other = pieces[x]
                if pc.kind != "token" or other.kind != "token" or x == pid or \
                        other.faces or other.reveals or pc.reveals:
                    raise Err("VALUE-INVALID", at + (j,),
                              f"piece {pid}: a token laid face down shows one of the "
                              f"faction's other tokens; {x!r} must be a token with no "
                              "'faces' or 'reveals' of its own, and so must it")
            if len(set(pc.faces)) != len(pc.faces):
                raise Err("VALUE-INVALID", at, f"piece {pid}: a face is named twice")
            if sum(pieces[x].count for x in pc.faces) != pc.count:
                raise Err("VALUE-INVALID", at,
                          f"piece {pid}: its faces are the same physical tokens, so their "
                          f"counts must add up to its {pc.count} (they add up to "
                          f"{sum(pieces[x].count for x in pc.faces)})")
            if pc.per_clearing != 1:
                raise Err("VALUE-INVALID", ("pieces", pid, "per_clearing"),
                          f"piece {pid}: a token laid face down lies at most one to a "
                          "clearing ('per_clearing': 1), so a removal knows which face "
                          "went (Law 13.2.2.II)")
        faces = {x for pid in faced for x in pieces[pid].faces}
        for pid, pc in pieces.items():
            hold = [x for x in pc.carries if x in faces or x in faced]
            if hold:
                raise Err("VALUE-INVALID", ("pieces", pid, "carries"),
                          f"piece {pid}: {hold[0]!r} lies face down or is a face of a token "
                          "that does: it is not carried (its face stays where it lies)")
        for i, a in enumerate(self.abilities):
            if not isinstance(a, Trigger) or a.on != "pieces_removed":
                continue
            named = [x for x in a.pieces if x in faced]
            if named:
                raise Err("VALUE-INVALID", ("abilities", i, "pieces"),
                          f"ability {a.id}: a trigger names {named[0]!r}, a token laid face "
                          "down: name the faces it may hide (its removal is its face's)")
            if any(x in faces for x in a.pieces) and (
                    a.by != "any" or a.in_battle is not None or a.cost != "none"):
                raise Err("VALUE-INVALID", ("abilities", i),
                          f"ability {a.id}: a trigger on a face reacts to every removal of "
                          "it ('by': 'any', no 'in_battle', no 'cost'): removed face down, "
                          "whether it reacts would tell the face (Law 13.7, the raid: "
                          "'Whenever a raid token is removed (face up or down)')")
        if len(faced) > 1:
            raise Err("VALUE-INVALID", ("pieces", faced[1], "faces"),
                      f"a faction has at most one token laid face down with faces its "
                      f"owner knows ({faced[0]!r} and {faced[1]!r})")
        for pid, pc in pieces.items():
            for j, x in enumerate(pc.carries):
                need(x, ("pieces", pid, "carries", j), f"piece {pid}")
                if pc.kind != "warrior" or pieces[x].kind != "token":
                    raise Err("VALUE-INVALID", ("pieces", pid, "carries", j),
                              f"piece {pid}: a warrior carries tokens; {pid} is a "
                              f"{pc.kind} and {x} a {pieces[x].kind}")
        for pid, pc in pieces.items():
            if pc.other_face is None:
                continue
            at = ("pieces", pid, "other_face")
            need(pc.other_face, at, f"piece {pid}")
            other = pieces[pc.other_face]
            if pc.kind != "building" or other.kind != "building" or pc.other_face == pid:
                raise Err("VALUE-INVALID", at, f"piece {pid}: a building's other face is "
                          "another building")
            if other.other_face != pid or other.count != pc.count:
                raise Err("VALUE-INVALID", at, f"piece {pid}: its other face "
                          f"{pc.other_face!r} must name it back ('other_face': {pid!r}) "
                          "and have the same count")
        if isinstance(self.crafting_piece, CraftingPieces):
            for j, x in enumerate(self.crafting_piece.among):
                need(x, ("crafting_piece", "among", j), "crafting_piece")
            by_cycle = self.crafting_piece.suit_of
            if by_cycle is not None:
                known = [c.id for c in self.cycles]
                if by_cycle not in known:
                    raise Err("REF-UNDEF", ("crafting_piece", "suit_of"),
                              f"crafting_piece: {unknown('cycle', by_cycle, known)}")
                stages = next(c.stages for c in self.cycles if c.id == by_cycle)
                if any(x not in ("fox", "rabbit", "mouse") for x in stages):
                    raise Err("CYCLE-STAGE", ("crafting_piece", "suit_of"),
                              f"crafting_piece: cycle {by_cycle}'s stages are not suits "
                              f"({', '.join(stages)}): its stage names no printed suit")
                for j, x in enumerate(self.crafting_piece.among):
                    if pieces[x].suit is None:
                        raise Err("PIECE-SUIT", ("crafting_piece", "among", j),
                                  f"crafting_piece: {x} has no suit to match the stage of "
                                  f"{by_cycle}")
        elif self.crafting_piece:
            need(self.crafting_piece, ("crafting_piece",), "crafting_piece")
        zone_ids = [z.id for z in self.zones]
        box_ids = [b.id for b in self.boxes]

        def named(ref: str | None, known: list[str], loc: tuple, where: str, what: str) -> None:
            if ref is not None and ref not in known:
                raise Err("REF-UNDEF", loc, f"{where}: {unknown(what, ref, known)}")

        for i, z in enumerate(self.zones):
            for j, lifter in enumerate(z.unlimited_while):
                need(lifter, ("zones", i, "unlimited_while", j), f"zone {z.id}")
        for i, box in enumerate(self.boxes):
            if not box.tally:
                need(box.piece, ("boxes", i, "piece"), f"box {box.id}")
            else:
                for j, x in enumerate(box.piece):
                    need(x, ("boxes", i, "piece", j), f"box {box.id}")
        ability_ids = [a.id for a in self.abilities]
        for i, a in enumerate(self.abilities):
            if isinstance(a, ExclusivePlacement):
                need(a.token, ("abilities", i, "token"), f"ability {a.id}")
            if isinstance(a, Rule):
                for j, pid in enumerate(a.with_):
                    need(pid, ("abilities", i, "with", j), f"ability {a.id}")
            if isinstance(a, Trigger):
                for j, pid in enumerate(a.pieces):
                    if pid != "warrior":  # the holder's warrior, by the word
                        need(pid, ("abilities", i, "pieces", j), f"ability {a.id}")
                if a.token is not None:
                    need(a.token, ("abilities", i, "token"), f"ability {a.id}")
            if isinstance(a, (Effect, Trigger)):
                for j, op in enumerate(a.do):
                    at_op = ("abilities", i, "do", j)
                    if isinstance(op, PlacePart):
                        # The pieces a placement names: its piece, and those its
                        # clearings' filter looks for (Field Hospitals' keep).
                        per_piece = isinstance(a, Trigger) and a.per_piece
                        if op.piece == "piece" and not per_piece:
                            raise Err("REF-UNDEF", (*at_op, "piece"),
                                      f"ability {a.id}: 'piece' is the piece removed, in "
                                      "the program of a trigger with 'per_piece' only")
                        if isinstance(op.piece, str) and op.piece not in ("warrior",
                                                                          "piece"):
                            need(op.piece, (*at_op, "piece"), f"op {op.op}")
                        if isinstance(op.at, AtEachClearing):
                            for key in ("has", "lacks", "has_any"):
                                v = getattr(op.at.each_clearing, key)
                                for k, x in enumerate([v] if isinstance(v, str) else v or []):
                                    need(x, (*at_op, "at", "each_clearing", key,
                                             *(() if isinstance(v, str) else (k,))),
                                         f"op {op.op}")
                    if isinstance(op, DiscardDownTo) and op.zone is None:
                        raise Err("KEY-MISSING", at_op,
                                  f"ability {a.id}: an effect's discard_down_to names the "
                                  "'zone' it discards from, down to its capacity")
                    named(getattr(op, "zone", None), zone_ids, (*at_op, "zone"),
                          f"op {op.op}", "zone")
                    named(getattr(op, "box", None), box_ids, (*at_op, "box"), f"op {op.op}",
                          "box")
                    for k, m in enumerate(getattr(op, "menu", [])):
                        at_menu = ("abilities", i, "do", j, "menu", k)
                        for attr in ("building", "piece", "pay_token"):
                            v = getattr(m, attr, None)
                            if v is not None:
                                need(v, (*at_menu, attr), f"menu {m.action}")
                        for jj, b in enumerate(getattr(m, "buildings", [])):
                            need(b, (*at_menu, "buildings", jj), f"menu {m.action}")
        for i, cy in enumerate(self.cycles):
            if cy.start is not None and cy.start not in cy.stages:
                raise Err("REF-UNDEF", ("cycles", i, "start"),
                          f"cycle {cy.id}: {cy.start!r} is not one of its stages"
                          f"{did_you_mean(cy.start, cy.stages)}")
        columns = {c.id for c in self.columns}
        for i, r in enumerate(self.roles):
            for j, col in enumerate(r.tuck):
                if col not in columns:
                    raise Err("REF-UNDEF", ("roles", i, "tuck", j),
                              f"role {r.id}: {unknown('column', col, columns)}")
            for key in ("abilities", "suppress"):
                for j, ab in enumerate(getattr(r, key)):
                    if ab not in ability_ids:
                        raise Err("REF-UNDEF", ("roles", i, key, j),
                                  f"role {r.id}: {unknown('ability', ab, ability_ids)}")
        programs = [(("setup",), self.setup),
                    *((("turn", ph), getattr(self.turn, ph))
                      for ph in ("birdsong", "daylight", "evening")),
                    *((("hooks", h), steps) for h, steps in self.hooks.items())]
        for base, steps in programs:
            for i, s in enumerate(steps):
                at, where = (*base, i), f"step {s.op}"
                if isinstance(s, ProgramStep):
                    # What its fields name is the program's to say (PROGRAM-USE), but a
                    # field 'cycle' names one of the faction's cycles, as the engine's
                    # steps' did (the standard advance_cycle's; REF-UNDEF at uses too).
                    cyc = s.fields().get("cycle")
                    ids = [c.id for c in self.cycles]
                    if isinstance(cyc, str) and cyc not in ids:
                        raise Err("REF-UNDEF", (*at, "cycle"), f"{where}: "
                                  f"{unknown('cycle', cyc, ids)}" +
                                  ("" if ids else " (the faction's 'cycles' define it)"))
                    continue
                for attr in ("piece", "building", "token"):
                    v = getattr(s, attr, None)
                    if v is not None:
                        need(v, (*at, attr), where)
                for j, b in enumerate(getattr(s, "buildings", [])):
                    need(b, (*at, "buildings", j), where)
                if isinstance(s, Actions) and isinstance(s.count, FromBox):
                    named(s.count.box, box_ids, (*at, "count", "box"), where, "box")
                if isinstance(s, ResolveColumns) and s.on_fail is not None and \
                        s.on_fail not in self.hooks:
                    raise Err("REF-UNDEF", (*at, "on_fail"),
                              f"{where}: {unknown('hook', s.on_fail, self.hooks)}")
                if isinstance(s, RunStage):
                    cycle = next((c for c in self.cycles if c.id == s.cycle), None)
                    if cycle is None:
                        ids = [c.id for c in self.cycles]
                        raise Err("REF-UNDEF", (*at, "cycle"), f"{where}: "
                                  f"{unknown('cycle', s.cycle, ids)}" +
                                  ("" if ids else " (the faction's 'cycles' define it)"))
                    for stage, hook in getattr(s, "hooks", {}).items():
                        if stage not in cycle.stages:
                            raise Err("REF-UNDEF", (*at, "hooks", stage),
                                      f"{where}: cycle {cycle.id} has no stage {stage!r}"
                                      f"{did_you_mean(stage, cycle.stages)}")
                        if hook not in self.hooks:
                            raise Err("REF-UNDEF", (*at, "hooks", stage),
                                      f"{where}: {unknown('hook', hook, self.hooks)}")
                if isinstance(s, DiscardDownTo) and s.zone is not None:
                    raise Err("VALUE-INVALID", (*at, "zone"),
                              f"{where}: a step discards the hand down to its 'limit'; a "
                              "zone down to its capacity is an effect program's")
                if isinstance(s, Craft) and not self.crafting_piece:
                    raise Err("VALUE-INVALID", at, f"{where}: the faction has no crafting_piece")
                if isinstance(s, Actions):
                    for k, m in enumerate(s.menu):
                        _check_menu_where(self, m, (*at, "menu", k), box_ids)
                        mat, mwhere = (*at, "menu", k), f"menu {m.action}"
                        # (a program's entry: its fields of these conventional names, as
                        # ids; what each parameter is, validation checks at the use)
                        fields = m.fields() if isinstance(m, ProgramEntry) else {}
                        given: dict[str, Any] = {
                            key: val for key, val in fields.items()
                            if isinstance(val, str) or (isinstance(val, list) and
                                                        all(isinstance(x, str) for x in val))}
                        for attr in ("building", "piece", "pay_token", "token"):
                            v = given.get(attr)
                            if isinstance(v, str):
                                need(v, (*mat, attr), mwhere)
                        v = given.get("buildings")
                        for j, b in enumerate(v if isinstance(v, list) else []):
                            need(b, (*mat, "buildings", j), mwhere)
                        for attr, known in (("zone", zone_ids), ("box", box_ids)):
                            v = given.get(attr)
                            named(v if isinstance(v, str) else None, known, (*mat, attr),
                                  mwhere, attr)
                        if isinstance(m, CraftAction) and not self.crafting_piece:
                            raise Err("VALUE-INVALID", mat,
                                      f"{mwhere}: the faction has no crafting_piece")
        return self


# --------------------------------------------------------------------------- programs
#
# Rules as programs of the language's parts (docs/language.md): a program is a list of
# instructions run for one player, its actor.  Its first choice is the action a menu
# offers; the parts say what the action needs, and the generator compiles each use of a
# program (its parameters bound) into the core.

ParamName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
ProgramName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_-]*$", max_length=64)]
"""A program's name, a menu entry's 'action' (and a verb: 'spend_place')."""
Ref = Annotated[str, Field(pattern=r"^(\$[a-z][a-z0-9_]*|[a-z][a-z0-9-]*)$", max_length=65)]
"""What a program names: a piece, zone or box by id, 'warrior' (the actor's warrior),
'piece' (the piece its first choice chose), or '$name', a parameter of the program."""
ParamType = Literal["piece", "building", "token", "warrior", "pieces", "buildings", "tokens",
                    "zone", "box", "number", "suit", "cycle"]
"""A parameter's type: a piece of the faction's (any, or of one kind), a list of them
(any, or of one kind), a zone, a box, a whole number, a suit."""
PIECE_KINDS: dict[str, tuple[str, str | None]] = {
    "piece": ("piece", None), "building": ("piece", "building"), "token": ("piece", "token"),
    "warrior": ("piece", "warrior"), "pieces": ("pieces", None),
    "buildings": ("pieces", "building"), "tokens": ("pieces", "token")}
"""A piece type's family (one piece, or a list) and the kind of piece it takes (None:
any)."""


def param_family(t: str) -> str:
    """What a parameter type is where a part names it: piece, pieces, zone, box, number."""
    return PIECE_KINDS[t][0] if t in PIECE_KINDS else t


class Param(Strict):
    """A parameter a use may leave out: its type, and what it is then."""

    type: ParamType
    default: ParamValue = None
    """Its value where a use does not give it (null: left out, which leaves out a
    part that needs it, as a box's 'into_box' does)."""


ParamRef = Annotated[str, Field(pattern=r"^\$[a-z][a-z0-9_]*$", max_length=65)]
"""'$name': a number parameter of the program."""


# ---- values and conditions: numbers a part reads when it runs (its count, a cost) and
# tests of the game; "the clearing" is the one the program's first choice chose.


class TrackCost(Strict):
    """The cost printed above the next piece of a track: what placing it costs (Law
    8.4.2: sympathy's supporters; Law 6.5.1 a building's wood)."""

    track_cost: Ref
    """The piece whose track is read ('piece': the one the first choice chose, Law
    6.5.4's building)."""


class WarriorsAt(Strict):
    """Warriors in the chosen clearing: the actor's ('self'), or the most that any one
    other player has there ('another': Law 8.4.2.I, martial law's 'three or more
    warriors of another player'; rule, Law 2.5, counts them alike)."""

    warriors: Literal["self", "another"]
    at: Literal["clearing"] = "clearing"


class PiecesAt(Strict):
    """Pieces of the actor's in the chosen clearing (or the clearing a filter tests, the
    battle's), counted: one piece by id, or several ('$param' of type pieces, or a
    list), all of them together (Law 15.2.4: a relic in the battle clearing; 6.2.2, a
    Keep there)."""

    pieces: Ref | list[Ref]
    at: Literal["clearing"] = "clearing"


class SupplyCount(Strict):
    """Pieces of the actor's in its supply, counted: one piece by id, or several ('$param'
    of type pieces, or a list) together (Law 15.3.4: "all remaining relics")."""

    supply: Ref | list[Ref]

    @model_validator(mode="after")
    def _some(self) -> SupplyCount:
        if not self.supply:
            raise Err("VALUE-INVALID", ("supply",), "'supply' names no piece: give a "
                      "piece, '$name', or a list of at least one")
        return self


class ClearingCount(Strict):
    """The clearings that pass a filter, counted (Law 8.4.1: the sympathetic clearings of
    the revolt's suit)."""

    clearings: ClearingFilter


class SumValue(Strict):
    """The sum of values (a cost and its surcharge)."""

    sum: list[Value] = Field(min_length=1, max_length=20)


class IfValue(Strict):
    """One value while a condition holds, another (0 unless given) while it does not:
    a surcharge (Law 8.4.2.I), a bonus."""

    if_: Condition = Field(alias="if")
    then: Value
    else_: Value = Field(default=0, alias="else")


class AtLeast(Strict):
    """A value is at least another: [value, least].  A number parameter a use leaves
    out (null: the rule does not apply there) makes it false."""

    at_least: list[Value] = Field(min_length=2, max_length=2)


class NoneOnMap(Strict):
    """No piece of this kind is on the map (Law 8.4.2: 'if there are no sympathetic
    clearings'; a first building, a first token), or of any of these kinds ('$param' of
    type pieces, or a list: Law 15.4.1, "If you have no warriors or waystations on the
    map")."""

    none_on_map: Ref | list[Ref]

    @model_validator(mode="after")
    def _some(self) -> NoneOnMap:
        if not self.none_on_map:
            raise Err("VALUE-INVALID", ("none_on_map",), "'none_on_map' names no piece: "
                      "give a piece, '$name', or a list of at least one")
        return self


class NotCondition(Strict):
    """The condition does not hold."""

    not_: Condition = Field(alias="not")


class Here(Strict):
    """The chosen clearing passes a clearing filter (Law 15.5.2: "if you rule the clearing
    and it has at least one Keeper warrior", ``{"here": {"rule": "self", "has":
    "warrior"}}``)."""

    here: ClearingFilter


class AllOf(Strict):
    """Every one of these conditions holds (Law 10.4.1: a suit has more cards than each
    other suit)."""

    all_of: list[Condition] = Field(min_length=1, max_length=20)


class AnyOf(Strict):
    """At least one of these conditions holds."""

    any_of: list[Condition] = Field(min_length=1, max_length=20)


class MostCards(Strict):
    """Of the clearing suits, this one has strictly the most cards in one of the actor's
    places of cards, birds not counted (Law 10.4.1: 'the suit with the most cards [in the
    Lost Souls pile, ignoring birds] becomes the new Outcast'; no suit has when two tie
    for the most)."""

    most_cards: Ref
    """'hand', 'columns', or a zone ('$name' of a zone parameter)."""
    suit: Annotated[str, Field(pattern=r"^(fox|rabbit|mouse|\$[a-z][a-z0-9_]*)$",
                               max_length=65)]
    """The suit: fox, rabbit or mouse, or '$name' of a suit parameter."""


ActionKind = Literal["move", "battle"]


class Did(Strict):
    """The actions an effect program's 'actions' part took did each of these: moved (Law
    4.2), initiated a battle (4.3).  Read after that part, in the same program (the
    Exiles deck's Eyrie Emigre: "If you did not take both actions, discard this card");
    or, in a library program run as a step after an 'actions' step of the same list,
    what that step's actions did (Law 14.7.5, Relentless: "Whenever you take the Advance
    the Warlord action and both move and battle").  Nowhere else (CONDITION-DID).
    Public facts."""

    did: list[ActionKind] = Field(min_length=1, max_length=2)


class Hides(Strict):
    """The token lying face down in the chosen clearing hides this face ('piece': the one
    a choice chose, a guess; Law 13.2.4, Exposure: "guess the type of plot token in that
    clearing").  Its owner answers, and everyone hears the answer: the 'if' that reads it
    tells the table (an 'answered' event), which only a program's 'if' may do
    (PROGRAM-USE elsewhere)."""

    hides: Ref


class AtStage(Strict):
    """One of the actor's cycles' markers is on this stage (a cycle is public, Law 1.2):
    Law 10.4.3, 'if the Outcast is Hated, the conspiracy costs one fewer' (a value's
    'if')."""

    at_stage: Ident
    """The stage (one of the cycle's 'stages')."""
    cycle: Ref
    """One of the faction's 'cycles' ('$name' of a cycle parameter)."""


# ---- values of cards and tracks (the steps as programs): what a step scores or draws


class OfSuit(Strict):
    """The first of these pieces still in the supply whose suit is the chosen clearing's
    (Law 8.4.1: the base of the clearing's suit) or the chosen card's ('card'; a bird card
    has none).  Read by a value of a track (``track_vp``): the first of them of that
    suit, in the supply or not (Law 10.5.3: the gardens track of the revealed card's
    suit)."""

    of_suit: Literal["clearing", "card"]
    among: Ref | list[Ref]
    """The pieces ('$param' of type pieces, or a list): buildings or tokens, each with a
    'suit'."""


class TrackVp(Strict):
    """The VP printed on the last space of a building's track its buildings on the map
    have uncovered (0 while none is on the map): what Law 7.6.1 scores for the roosts."""

    track_vp: Ref | OfSuit
    """A building, or the one of several of the chosen clearing's or card's suit (Law
    10.5.3: the VP above the rightmost empty space of the revealed card's gardens track)."""


class DrawBonus(Strict):
    """The draw bonuses uncovered on the tracks of these buildings, added up (Law 6.6.1,
    7.6.2, 8.6.2.I: the extra cards drawn in Evening); a piece parameter a use leaves out
    adds nothing."""

    draw_bonus: list[Ref] = Field(min_length=1, max_length=20)
    """Pieces, '$name' of a piece or of a pieces parameter."""


class CardCount(Strict):
    """The actor's cards in its hand ('hand'), its columns ('columns', the Decree, Law
    7.2) or one of its zones, counted; of one suit only when 'suit' is given (birds count
    as birds, not as wild)."""

    cards: Ref
    """'hand', 'columns', or a zone ('$name' of a zone parameter)."""
    suit: Suit | ParamRef | None = None
    """Only cards of this suit ('$name' of a suit parameter)."""


class ForestsHeld(Strict):
    """The forests the actor holds: it rules more of the clearings a forest touches than
    any other player does, and at least this many of them (Law 2.4, 2.5; the druids'
    Harvest)."""

    forests_held: Annotated[int, Field(ge=1, le=64)] | ParamRef
    """The fewest clearings of a forest the actor must rule to hold it ('$name' of a
    number parameter)."""


class EventPieces(Strict):
    """In a trigger's program: how many of the trigger's pieces its event removed from
    the clearing (warriors moved in, for 'warriors_moved_in'): Law 10.2.3, Revenge's
    warriors removed while defending, each placed in the Acolytes box."""

    event: Literal["pieces"]


class BoxValue(Strict):
    """The pieces in one of the actor's boxes (Law 8.2.4: the warriors in the Officers
    box)."""

    box: Ref
    """The box ('$name' of a box parameter), or 'piece': the one that holds the piece a
    second choice chose (Law 15.5.2: the Relics row of the recovered relic's type)."""


class LawNumber(Strict):
    """A number of the Law's that an ability may change for the actor: 'recruit', the
    warriors one recruit places (1, or the actor's 'numbers' ability's 'recruit': Law
    7.8.2, the Charismatic places two)."""

    number: Literal["recruit"]


class HalfValue(Strict):
    """Half a value, rounded up (Law 8.2.4: 'half of the warriors, rounded up')."""

    half: Value


class ValueOf(Strict):
    """The number printed on the chosen piece (its 'value'; 0 for a piece without one):
    Law 15.5.2, "Score victory points equal to the relic's value"."""

    value_of: Literal["piece"]


class TakenValue(Strict):
    """How many times the actor has taken this program's action this turn before this
    one, in any menu of its (Law 13.5.2, Plot: "Remove a Corvid warrior, plus another
    Corvid warrior per plot you have placed this turn"): a menu program's."""

    taken: Literal["this_turn"]


class ChosenValue(Strict):
    """The number a second choice chose ('choose' 'number'): Law 12.5.1, Dig, "move up
    to four warriors (at least one) from the Burrow to that clearing", the warriors
    moved."""

    chosen: Literal["number"]


class LeastValue(Strict):
    """The least of values (Law 15.5.2: a Relics column is filled once every row holds
    as many relics as it has spaces up to it: the least of the rows' counts)."""

    least: list[Value] = Field(min_length=2, max_length=20)


class TimesValue(Strict):
    """A value times another (VP for each forest held)."""

    times: list[Value] = Field(min_length=2, max_length=2)


class DividedValue(Strict):
    """A value divided by a number, rounded down: 'one point per five warriors here' (the
    Exiles deck's Coffin Makers); or up ('half, rounded up' is 'half')."""

    divided: Value
    by: int = Field(ge=1, le=100)
    round: Literal["down", "up"] = "down"


_VALUE_FORMS = {"track_cost": "track-cost", "warriors": "warriors-at", "sum": "sum-of",
                "if": "if-then", "clearings": "clearing-count", "track_vp": "track-vp",
                "draw_bonus": "draw-bonus", "cards": "card-count",
                "forests_held": "forests-held", "times": "times", "event": "event-pieces",
                "box": "box-pieces", "half": "half-of", "number": "law-number",
                "pieces": "pieces-at", "value_of": "value-of", "least": "least-of",
                "supply": "supply-count", "divided": "divided-by", "taken": "taken-count",
                "chosen": "chosen-number"}
_CONDITION_FORMS = {"at_least": "at-least", "none_on_map": "none-on-map", "not": "negation",
                    "at_stage": "at-stage", "all_of": "all-of", "any_of": "any-of",
                    "most_cards": "most-cards", "here": "here", "did": "did",
                    "hides": "hides"}


# Every value's and condition's branch name is a union tag of a location, too.
UNION_TAGS = UNION_TAGS | frozenset(_VALUE_FORMS.values()) | \
    frozenset(_CONDITION_FORMS.values()) | {"crafting-piece", "crafting-pieces"}


def _value_form(v: object) -> str:
    if isinstance(v, str):
        return "parameter"
    if isinstance(v, (dict, BaseModel)):
        return _dict_form(v, _VALUE_FORMS, _VALUE_MODELS)
    return "number"


def _condition_form(v: object) -> str:
    return _dict_form(v, _CONDITION_FORMS, _CONDITION_MODELS)


def _dict_form(v: object, forms: dict[str, str], models: Mapping[str, type]) -> str:
    """A small object's member, by its one key (for a misspelt key: the closest's)."""
    for tag, model in models.items():
        if isinstance(v, model):
            return tag
    if isinstance(v, dict):
        for key, tag in forms.items():
            if key in v:
                return tag
        for k in v:
            if isinstance(k, str):
                hint = did_you_mean(k, list(forms))
                for key, tag in forms.items():
                    if hint and f"'{key}'" in hint:
                        return tag
    return next(iter(forms.values()))


Value = Annotated[
    Annotated[Annotated[int, Field(ge=0, le=100)], Tag("number")] |
    Annotated[ParamRef, Tag("parameter")] | Annotated[TrackCost, Tag("track-cost")] |
    Annotated[WarriorsAt, Tag("warriors-at")] | Annotated[SumValue, Tag("sum-of")] |
    Annotated[IfValue, Tag("if-then")] | Annotated[ClearingCount, Tag("clearing-count")] |
    Annotated[TrackVp, Tag("track-vp")] | Annotated[DrawBonus, Tag("draw-bonus")] |
    Annotated[CardCount, Tag("card-count")] | Annotated[ForestsHeld, Tag("forests-held")] |
    Annotated[TimesValue, Tag("times")] | Annotated[EventPieces, Tag("event-pieces")] |
    Annotated[BoxValue, Tag("box-pieces")] | Annotated[HalfValue, Tag("half-of")] |
    Annotated[LawNumber, Tag("law-number")] | Annotated[PiecesAt, Tag("pieces-at")] |
    Annotated[ValueOf, Tag("value-of")] | Annotated[LeastValue, Tag("least-of")] |
    Annotated[SupplyCount, Tag("supply-count")] | Annotated[DividedValue, Tag("divided-by")] |
    Annotated[TakenValue, Tag("taken-count")] | Annotated[ChosenValue, Tag("chosen-number")],
    Discriminator(_value_form),
]
"""A number a part reads when it runs: a constant, a number parameter ('$n'), a track's
next cost, warriors in the clearing, pieces of the actor's there, clearings of a filter,
a sum, a value while a condition holds."""
Condition = Annotated[
    Annotated[AtLeast, Tag("at-least")] | Annotated[NoneOnMap, Tag("none-on-map")] |
    Annotated[NotCondition, Tag("negation")] | Annotated[AtStage, Tag("at-stage")] |
    Annotated[AllOf, Tag("all-of")] | Annotated[AnyOf, Tag("any-of")] |
    Annotated[MostCards, Tag("most-cards")] | Annotated[Here, Tag("here")] |
    Annotated[Did, Tag("did")] | Annotated[Hides, Tag("hides")],
    Discriminator(_condition_form),
]
"""A test of the game: a comparison of values, no piece of a kind on the map, a cycle's
marker on a stage, a suit with the most cards of a place, not, all of, any of."""
_VALUE_MODELS = {"track-cost": TrackCost, "warriors-at": WarriorsAt, "sum-of": SumValue,
                 "if-then": IfValue, "clearing-count": ClearingCount, "track-vp": TrackVp,
                 "draw-bonus": DrawBonus, "card-count": CardCount,
                 "forests-held": ForestsHeld, "times": TimesValue,
                 "event-pieces": EventPieces, "box-pieces": BoxValue,
                 "half-of": HalfValue, "law-number": LawNumber, "pieces-at": PiecesAt,
                 "value-of": ValueOf, "least-of": LeastValue, "supply-count": SupplyCount,
                 "divided-by": DividedValue, "taken-count": TakenValue,
                 "chosen-number": ChosenValue}
_CONDITION_MODELS = {"at-least": AtLeast, "none-on-map": NoneOnMap, "negation": NotCondition,
                     "at-stage": AtStage, "all-of": AllOf, "any-of": AnyOf,
                     "most-cards": MostCards, "here": Here, "did": Did, "hides": Hides}


FILTER_SUIT = r"^(clearing|fox|rabbit|mouse|\$[a-z][a-z0-9_]*)$"
"""A clearing filter's suit: the chosen clearing's, a clearing suit, or a parameter's."""


class ClearingFilter(Strict):
    """Clearings that pass every test given."""

    has: Ref | None = None
    """Holding at least one of this piece."""
    has_any: Ref | list[Ref] | None = None
    """Holding at least one piece of any of these ('$param' of type pieces, or a list)."""
    lacks: Ref | list[Ref] | None = None
    """Holding none of this piece, or of these ('$param' of type pieces, or a list)."""
    suit: Annotated[str, Field(pattern=FILTER_SUIT, json_schema_extra={
        "examples": ["clearing", "fox", "rabbit", "mouse", "$suit"]})] | None = None
    """Of the chosen clearing's suit (Law 8.4.1: the clearings of the revolt's suit), of
    a suit named (the Favors' 'every clearing of the fox suit', Law 4.1.2), or of the
    suit a parameter names ('$name' of a suit parameter; bird: no clearing)."""
    suit_of: Ref | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Of the suit named by the stage one of the actor's cycles' markers is on ('$name'
    of a cycle parameter; each of its stages a suit, fox, rabbit, mouse: CYCLE-STAGE):
    Law 10.4.3, the clearings matching the Outcast."""
    adjacent_to: Annotated[
        Annotated[Literal["clearing"], Tag("chosen-clearing")] |
        Annotated[ClearingFilter, Tag("clearing-filter")],
        Discriminator(lambda v: "chosen-clearing" if isinstance(v, str) else
                      "clearing-filter")] | None = None
    """Adjacent to at least one clearing that passes this filter (Law 8.4.2: next to a
    sympathetic clearing; Law 4.2 moves, 6.5 a Marquise's neighbours), or to the chosen
    clearing ('clearing': in each clearing a filter passes, Law 13.7, the raid: "place one
    warrior in each clearing adjacent to the clearing from which the raid was removed";
    12.3.3, "2 warriors in each clearing adjacent to the chosen corner clearing")."""
    any_of: list[ClearingFilter] | None = Field(default=None, min_length=1, max_length=20)
    """Passing at least one of these filters."""
    when: Condition | None = None
    """While this condition holds (the same for every clearing): in 'any_of', a way in
    that the game opens (Law 8.4.2: any clearing while none has sympathy)."""
    holds: Condition | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Where this condition holds of the clearing tested: its values read that clearing
    as 'the clearing' (warriors there, its suit), each clearing in turn (Law 15.6.1:
    each clearing with four or more of your warriors, `{"at_least": [{"warriors":
    "self"}, 4]}`; 8.4.2.I: three or more of another player's)."""
    rule: Literal["self"] | None = None
    """Ruled by the actor (Law 2.5: Law 6.5.4's build, in a clearing you rule)."""
    home: bool | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """The actor's home clearing, the corner its setup took (true), or any other
    (false): Law 10.3.2, a warrior in each clearing adjacent to home."""
    opposite_home: bool | Literal["another"] | None = Field(
        default=None, json_schema_extra=ADDED_LATER)
    """The corner diagonally opposite the actor's home (true), or any other clearing
    (false): Law 6.3.3, a warrior in each clearing but the corner opposite the Keep;
    'another': the corner diagonally opposite another player's home (Law 7.3.1)."""
    corner: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """A corner clearing of the map (true), or any other (false): Law 6.3.1, 7.3.1."""
    edge: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """A clearing on the map's edge (true: the map marks it 'edge', Law G.15), or one
    inside it (false): Law 15.3, 'an adjacent map-edge clearing'; 15.4.1, Encamp."""
    river: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """A clearing a river touches (true: the map links it to another by a river, Law
    2.3), or one no river touches (false): Law 11.3.2, "any clearings touching the
    river"."""
    taken_as_home: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Some player's home (true), or no one's (false): Law 7.3.1, a corner that is no
    one's home."""
    enemies: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Holding a piece of another player's (true), or none (false): with the actor's
    warrior ('has'), where the actor may initiate a battle (Law 4.3.1; 10.4.3, Crusade:
    "battle in an Outcast clearing")."""
    own_pieces: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Holding a piece of the actor's faction (true), or none (false): Law 13.2.4,
    Exposure, "an enemy with faction pieces in a clearing"; 11.2.6, a service bought per
    clearing with a trade post and the buyer's pieces."""
    placeable: Ref | list[Ref] | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Where each of these pieces of the actor's may be placed (Law 2.2.3: an open slot
    for a building; no other player's exclusive placement forbidding it, Law 6.2.2; room
    under a per-clearing limit): Law 7.4.3, where the roost and warriors can be placed."""
    adjacent_to_forest: bool | None = Field(default=None,
                                            json_schema_extra=ADDED_TO_LIBRARIES)
    """A clearing the forest a second choice chose touches (true), or one it does not
    (false): Law 15.5.2, Delve, "the clearings you rule adjacent to the forest from which
    you delved the relic"."""
    fewest_warriors: bool | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Of the clearings that pass the filter's other tests, those with the fewest
    warriors, everyone's counted (Law 7.4.3)."""
    first_of: list[ClearingFilter] | None = Field(
        default=None, min_length=1, max_length=20, json_schema_extra=ADDED_TO_LIBRARIES)
    """'If possible': the first of these filters that, with the filter's other tests,
    passes some clearing (Law 7.3.1: diagonally opposite another home if possible, `[
    {"opposite_home": "another"}, {}]`, the empty filter passing every clearing); no
    clearing when none does."""


def reads_river(content: Any) -> bool:
    """Whether a clearing filter anywhere in this content reads the rivers ('river')."""
    return any(isinstance(x, ClearingFilter) and x.river is not None for x in walk(content))


def reads_edge(content: Any) -> bool:
    """Whether a clearing filter anywhere in this content (a model, or lists, tuples
    and dicts of them) reads the map's edge ('edge')."""
    return any(isinstance(x, ClearingFilter) and x.edge is not None for x in walk(content))


class CardChoice(Strict):
    """A card of the actor's, one option per card (by its definition)."""

    source: Literal["hand"] = Field(default="hand", alias="from")
    """Where the card is chosen from: the actor's hand."""
    matching: Literal["clearing"] | ClearingFilter | None = None
    """Only cards whose suit matches (birds match any clearing, Law 2.1.1): the clearing
    chosen with it, or some clearing that passes a filter."""
    birds_wild: bool = Field(default=True, json_schema_extra=ADDED_LATER)
    """Whether a bird card matches any clearing here (Law 2.1.1); false: a bird matches
    no clearing (Law 10.2.2, the Cult's Hatred of Birds: not wild for its rituals)."""
    suit: Suit | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Only cards of this printed suit (Law 10.5.4, Sacrifice: 'you must reveal a bird
    card'; a bird card is a bird here, not wild)."""


class PieceChoice(Strict):
    """One of these pieces of the actor's, the next from its track: one option per piece
    still in the supply.  The parts after the choice name it 'piece' (Law 6.5.4: which
    building; 'track_cost': 'piece', its cost)."""

    among: Ref | list[Ref]
    """The pieces ('$param' of type pieces, or a list)."""
    same_type_as: Ref | list[Ref] | None = Field(default=None,
                                                 json_schema_extra=ADDED_TO_LIBRARIES)
    """A second choice's: only a piece of a type one of these pieces in the chosen
    clearing shows (Law 15.5.2, Recover: "a relic there of the same type as a waystation
    there"; each piece's 'type')."""
    named: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """One of these pieces named, not one on the map or in the supply (a guess: Law
    13.2.4, Exposure, "guess the type of plot token"): an option per piece, whatever
    lies face up already (a guess that can only be wrong is still the taker's to make),
    with each clearing of the filter in a first choice ('expose bomb 5'), alone in a
    second ('piece bomb').  The condition 'hides' reads it."""


NUMBER_MOST = 20
"""The greatest number a choice of a number offers (its action type's size less one)."""


class NumberChoice(Strict):
    """A number from 'min' to 'max', both read as the choice is asked: one option each
    ('number 3'), the parts after the choice reading it as ``{"chosen": "number"}`` (Law
    12.5.1, Dig: "move up to four warriors (at least one) from the Burrow", ``{"min": 1,
    "max": {"least": [4, {"box": "burrow"}]}}``).  None to choose where 'max' is below
    'min'; at most NUMBER_MOST (20) whatever 'max' reads.  Whether the action is offered
    reads them as it is offered, before the parts ahead of the choice run: where those
    parts change what 'min' or 'max' reads (a card discarded, then the hand counted), a
    choice left with no number when it is asked asks nothing, and the parts after it are
    not carried out."""

    min: Value = 0
    max: Value


class ChoosePart(Strict):
    """The actor chooses: a clearing from a filter, a card, or both at once (one option
    per pair), or a piece and a clearing together, or a cycle's stage.  The first choice
    of a program is the action a menu offers (or a step's decision)."""

    op: Literal["choose"]
    clearing: ClearingFilter | None = None
    card: CardChoice | None = None
    piece: PieceChoice | None = None
    """With a clearing: one option per piece and clearing (the pieces' order first).  As
    a second choice, alone: one of these pieces in the chosen clearing ('piece
    <piece>'; Law 15.5.2, Recover: "Take a relic there"), the parts after it acting on
    it.  A second choice of a 'clearing' alone chooses another clearing than the chosen
    one, passing its filter ('clearing <clearing>'; Law 13.5.4, Trick: the second of the
    two plot tokens swapped), for a 'swap'; one of a 'card' alone, a card of the actor's
    hand ('card <card>', matching the chosen clearing with 'matching': 'clearing'; Law
    13.2.4, Exposure: the card shown with the guess), for the parts after it to show,
    give or discard ('chosen')."""
    stage: Ref | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Alone: one of the stages of one of the actor's cycles ('$name' of a cycle
    parameter), one option per stage, in the cycle's order (Law 10.3.3: the outcast
    marker placed on any suit space); the part 'set_stage' puts the marker there."""
    except_current: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """With 'stage': every stage but the one the marker is on (Law 14.4.4, Choose Mood:
    "replace the mood card ... with a different mood card")."""
    forest: ForestFilter | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """A second choice, after the first (a clearing): a forest that passes the filter,
    with a 'piece' in it (one option per forest and piece there: 'forest <forest>
    <piece>'); the parts after it act on them (Law 15.5.2, Delve: "Move any relic from
    an adjacent forest into that clearing").  With none to choose, the parts after it
    are not carried out."""
    number: NumberChoice | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """A second choice, alone, after a first choice of a clearing: a number ('number
    <n>'), which the parts after it read as ``{"chosen": "number"}`` (a count of pieces
    placed, moved into or out of a box, cards drawn, VP scored)."""
    optional: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """A second choice the actor may decline ('done': "you may delve")."""
    repeat: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """A second choice asked again, the actor free to decline it ('done'), each time its
    parts are carried out and no 'stop' ended them, while it has an option (Law 15.5.2,
    Recover: "you may return to the Take Relic step or end this Recover action")."""

    @model_validator(mode="after")
    def _except_a_stage(self) -> ChoosePart:
        if self.except_current and self.stage is None:
            raise Err("VALUE-INVALID", ("except_current",), "'except_current' leaves out "
                      "the stage a cycle's marker is on: a choice of a 'stage' only")
        return self


class DiscardPart(Strict):
    """Discard the chosen card (Law 2.1; spent), or, in a Decree column's program, the
    column's card it resolves ('card': 'resolving': Law 15.5.2, the Keepers' 'discard the
    Retinue card'; a faction card goes back to its reserve, as any discard does)."""

    op: Literal["discard"]
    card: Literal["chosen", "resolving", "this"] = Field(
        default="chosen", json_schema_extra=ADDED_TO_LIBRARIES)
    """The card: the one the program's first choice chose, or the column's card its
    action resolves (a column's program only: PROGRAM-USE elsewhere), or 'this': the
    persistent card whose ability the program is, from its holder's play area (a card's
    effect program only, EFFECT-PART: the Exiles deck's Eyrie Emigre, "discard this
    card"; an effect's 'cost': 'discard' discards it as it is used instead)."""


class PutPart(Strict):
    """Put the chosen card into one of the actor's zones (a full zone discards it, Law
    8.2.3.I)."""

    op: Literal["put"]
    zone: Ref


class AtEach(Strict):
    """At each piece of this kind on the map (one placement per piece).  When the supply
    cannot cover them all, the program's actor chooses where what there is goes (Law
    1.5.4, 'clearing <c>' one piece at a time), as for each clearing of a filter, where
    the placement is the action's last part; otherwise in clearing order."""

    each: Ref


class AtEachClearing(Strict):
    """In each clearing that passes a filter (one placement per clearing).  When the
    supply cannot fill them all, the player it prompts to place (the program's actor,
    on another's turn too) places what there is in clearings of their choice (Law 1.5.4:
    the most possible), asked 'clearing <c>' one piece at a time among those still owed;
    while the supply covers them, or one clearing is owed, in clearing order, asking
    nothing.  Where the answer would come after parts that follow it, the placement is
    in clearing order: a placement that other parts of the action follow, one after a
    cost, a battle or a second choice, one in a Decree column's program, and one of
    pieces just removed or drawn at random."""

    each_clearing: ClearingFilter


class ForestFilter(Strict):
    """Forests that pass every test given.  A forest (Law 2.4) is a place for pieces
    where content puts them there (Law 15.3.1: a relic in each forest); pieces in a
    forest are on the map but in no clearing, and every player sees them."""

    has: Ref | None = None
    """Holding at least one of this piece."""
    lacks: Ref | list[Ref] | None = None
    """Holding none of this piece, or of these."""
    adjacent_to: Annotated[
        Annotated[Literal["clearing"], Tag("chosen-clearing")] |
        Annotated[ClearingFilter, Tag("clearing-filter")],
        Discriminator(lambda v: "chosen-clearing" if isinstance(v, str) else
                      "clearing-filter")] | None = None
    """Touching the chosen clearing ('clearing': Law 15.5.2, "an adjacent forest"), or at
    least one clearing that passes this filter (the clearings a forest touches are the
    ones adjacent to it, Law 2.4)."""
    away_from: ClearingFilter | None = None
    """Touching no clearing that passes this filter (Law 15.3.4: 'forests not adjacent to
    clearings with your warriors', ``{"away_from": {"has": "warrior"}}``)."""
    when: Condition | None = None
    """While this condition holds (the same for every forest: Law 15.5.2, "if you rule
    the clearing", ``{"here": {"rule": "self"}}``)."""


class AtForest(Strict):
    """In one forest that passes a filter, the actor's choice, asked as the decision
    'choice' ('forest <forest> <piece>'): an effect program's (Law 15.2.5, Prized
    Trophies: "they place it in any forest"); with no forest that passes, nothing is
    placed."""

    forest: ForestFilter


class AtEachForest(Strict):
    """In each forest that passes a filter (one placement per forest, in the map's order
    of its forests): Law 15.3.1, a relic placed in each forest."""

    each_forest: ForestFilter


class RandomPiece(Strict):
    """One piece drawn at random from the supply of these kinds, each piece there as
    likely as any other, drawn anew for each piece placed (Law 15.3.1: the relics
    shuffled, one placed at random in each forest)."""

    random: Ref | list[Ref]
    """The kinds ('$param' of type pieces, or a list)."""


def uses_forest_places(content: Any) -> bool:
    """Whether this content (a model, or lists, tuples and dicts of them) puts pieces in
    forests or reads them (a forest filter): the core then keeps each forest's pieces."""
    return any(isinstance(x, ForestFilter) for x in walk(content))


_AT_FORMS = {"each": "at-each", "each_clearing": "at-each-clearing",
             "each_forest": "at-each-forest", "forest": "at-forest"}
UNION_TAGS = UNION_TAGS | frozenset(_AT_FORMS.values()) | {"chosen-clearing",
                                                           "clearing-filter"}


def _at_form(v: object) -> str:
    """A placement's 'at', by its form: 'clearing', or an object by its one key (for a
    misspelt key: the closest's), so an error speaks of that form alone."""
    if isinstance(v, str):
        return "chosen-clearing"
    models = {"at-each": AtEach, "at-each-clearing": AtEachClearing,
              "at-each-forest": AtEachForest, "at-forest": AtForest}
    return _dict_form(v, _AT_FORMS, models)


class PlacePart(Strict):
    """Place pieces from the supply, as far as it allows (Law 1.5.4): in the chosen
    clearing, or one at each of a building, or in each clearing or forest of a filter
    (a step's); score the track space a piece uncovers.  Never in a clearing where
    another player's exclusive placement forbids it (Law 6.2.2, the Keep): a choice of
    the clearing offers none such for a placement the action requires, one not required
    ('require': false) places nothing there, and a filter's placements pass it by.  A
    building needs an open slot; after a 'remove' of every enemy piece there, the slots
    their buildings held count as open and no other player's piece forbids it (Law
    8.4.1)."""

    op: Literal["place"]
    piece: Ref | OfSuit | RandomPiece
    at: Annotated[
        Annotated[Literal["clearing"], Tag("chosen-clearing")] |
        Annotated[AtEach, Tag("at-each")] | Annotated[AtEachClearing, Tag("at-each-clearing")] |
        Annotated[AtEachForest, Tag("at-each-forest")] | Annotated[AtForest, Tag("at-forest")],
        Discriminator(_at_form)] = "clearing"
    count: Value = 1
    """How many (a value: Law 8.4.1's warriors, one per sympathetic clearing of the suit)."""
    score: bool = False
    """Score the VP of the track space the placed piece uncovered (its track's 'vp')."""
    require: bool = True
    """Offer the action only where this placement can be made (a piece left, a clearing
    that takes it); false: placed as far as the supply allows, the action offered
    without it (Law 8.4.1's warriors)."""
    face_down: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """The piece is one of a token's 'faces', placed face down as that token in the
    chosen clearing, one of it ('count' 1): every player sees the token, only the actor
    its face (Law 13.5.2, Plot: "place a facedown plot token there").  Offered only while
    the actor has that face left off the map, which only it knows; the faces are chosen
    with a choice of a 'piece' and a clearing together."""
    evenly: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """At each clearing or forest of a filter: 'count' is how many in all, dealt among
    them as evenly as possible, the ones that get one more drawn at random (Law 15.3.4:
    "Place all remaining relics randomly, as evenly as possible, among forests not
    adjacent to clearings with your warriors": the count ``{"supply": "$relics"}``)."""

    @model_validator(mode="after")
    def _face_down_one(self) -> PlacePart:
        if self.face_down and (self.count != 1 or self.at != "clearing" or self.evenly or
                               self.score or not isinstance(self.piece, str)):
            raise Err("VALUE-INVALID", ("face_down",), "a face is laid face down one at a "
                      "time, in the chosen clearing ('count' 1, 'at' 'clearing')")
        return self


class SwapPart(Strict):
    """Swap pieces between the chosen clearing and the one a second choice chose (Law
    G.33: a swap exchanges two pieces' places, no move and no placement, so the limits of
    either do not apply; 13.5.4, Trick: "Swap two plot tokens on the map"): every piece
    of these kinds in the one goes to the other, and the other's to the one.  A token
    lying face down takes its hidden face with it (models.Piece.faces), which only its
    owner sees."""

    op: Literal["swap"]
    pieces: Ref | list[Ref]
    """The pieces swapped ('$param' of type pieces or tokens, or a list)."""


class RevealPart(Strict):
    """Turn the chosen piece face up where it lies in the chosen clearing (Law 15.5.2,
    Delve: "Flip that relic so its value is showing if it is not"): a piece with
    'reveals' becomes one of those, drawn at random from their supply; a token with
    'faces' shows the face its owner chose as it laid it (Law 13.4.2, Flip Plots); the
    parts after it read the piece it turned out to be as 'piece'.  A piece face up
    already stays."""

    op: Literal["reveal"]
    piece: Ref = "piece"
    """The piece the second choice chose ('piece'), or a piece of the actor's named (a
    '$param' of type token): one of it lying in the chosen clearing (Law 13.4.2, Flip
    Plots: "flip a plot token face up in a clearing with any Corvid warriors"), with no
    second question; none there, nothing turns."""


class MovePart(Strict):
    """Move the piece a second choice chose: from the forest it chose into the chosen
    clearing (Law 15.5.2, Delve: "Move any relic from an adjacent forest into that
    clearing"), or from the chosen clearing into the actor's box that holds it (Law
    15.5.2, Recover: "Take a relic there ... Place it in your leftmost empty Relics
    space of that relic type").  Moving pieces between clearings is the Law's move
    (4.2), a menu's."""

    op: Literal["move"]
    piece: Literal["piece", "warrior"] = "piece"
    """The piece the second choice chose; or, in an effect program, 'warrior': a move
    (Law 4.2) of the warriors of the player 'who' names, the one carrying the program
    out choosing it: from a clearing where they are, along a path (or a link that
    player's 'moving' abilities give it) to an adjacent clearing, as many as 'count'
    says (the Exiles deck's False Orders: "force an enemy to move half their faction
    warriors (round up) from a clearing you choose to a clearing you choose, ignoring
    rule").  The move is that player's: what it sets off (a warriors_moved_in trigger,
    Law 8.2.6's Outrage) is as for any move of theirs."""
    source: Literal["forest", "clearing"] = Field(default="forest", alias="from")
    """From the forest the second choice chose, or the chosen clearing."""
    to: Literal["clearing", "box"] = "clearing"
    """Into the clearing the first choice chose, or the box of the actor's that holds
    the piece (its 'piece', or one of its list)."""
    who: Literal["self", "target", "opponent", "holder"] = Field(
        default="self", json_schema_extra=ADDED_TO_LIBRARIES)
    """'warrior': whose warriors move."""
    count: Value | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """'warrior': how many, read of the clearing they leave as that player's (``{"half":
    {"warriors": "self"}}``: half of theirs there, rounded up), as far as there are; none:
    any number of them, one option each (a move, Law 4.2)."""
    ignore_rule: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """'warrior': the move needs no rule of its origin or its destination (Law 4.2's
    condition waived: False Orders, "ignoring rule")."""

    model_config = ConfigDict(**Strict.model_config, populate_by_name=True)


class TuckPart(Strict):
    """Tuck the actor's own faction cards (its 'cards'), from its reserve, one into each
    of its columns, or into each of some of them (Law 15.3.5, the Keepers' setup: "Tuck
    one Faithful Retainer card into each Retinue slot of your faction board"; Law 7.7.3,
    a new Eyrie leader's Loyal Viziers, into the columns its role names), as far as the
    reserve holds them.  A column's card discarded goes back to the reserve."""

    op: Literal["tuck"]
    into: Literal["each", "role"] | list[Ident] = "each"
    """'each': every column of the actor's; 'role': the columns the actor's role names
    (its 'tuck': Law 7.3.4, 7.7.3, a new leader's two Loyal Viziers); or these columns."""


class RemovePart(Strict):
    """Remove one of the actor's pieces ('piece'), or every piece of every other player
    ('pieces': 'enemy', Law 8.4.1; the actor scores for the buildings and tokens, Law
    3.2.1), from the chosen clearing (an effect program's: its clearing; none: nothing is
    removed), or from every clearing that passes a filter ('at'): one removal event (Law
    1.5.4), what it sets off resolving before the program goes on.  One piece of the
    actor's is removed only where there is one (Law 1.5.4)."""

    op: Literal["remove"]
    piece: Ref | None = None
    pieces: Literal["enemy"] | None = None
    at: Literal["clearing"] | ClearingFilter = Field(default="clearing",
                                                      json_schema_extra=ADDED_LATER)
    """Where: the chosen clearing, or each clearing that passes a filter (the Favors'
    every clearing of a suit, Law 4.1.2: {"suit": "fox"})."""
    kinds: list[Literal["warrior", "building", "token"]] | None = Field(
        default=None, min_length=1, json_schema_extra=ADDED_TO_LIBRARIES)
    """With 'pieces': 'enemy', only the enemy pieces of these kinds (Law 14.4.1, Raze:
    "remove all enemy buildings and tokens"); every kind without."""
    count: Value = Field(default=1, json_schema_extra=ADDED_TO_LIBRARIES)
    """With 'piece', in the chosen clearing of a menu's program: how many of it (Law
    13.5.2, Plot: "Remove a Corvid warrior, plus another Corvid warrior per plot you
    have placed this turn"), read as the action is offered (only where as many are
    there) and as it is taken."""
    as_token: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """With 'piece', a token laid face down ('faces'): removed as the token, not as the
    face it hides, so no trigger on its face reacts (Law 13.2.4, Exposure: "if this
    removes a Raid token, it does not place warriors").  The token goes back as any
    removal sends it, scoring for an enemy remover (Law 3.2.1)."""

    @model_validator(mode="after")
    def _one(self) -> RemovePart:
        if (self.piece is None) == (self.pieces is None):
            raise Err("VALUE-INVALID", ("piece",),
                      "'remove' names one of 'piece' (one of yours) or 'pieces' ('enemy')")
        if self.count != 1 and (self.piece is None or self.at != "clearing"):
            raise Err("VALUE-INVALID", ("count",), "'count' is how many of your 'piece' "
                      "'remove' takes from the chosen clearing")
        if self.kinds is not None and self.pieces != "enemy":
            raise Err("VALUE-INVALID", ("kinds",),
                      "'kinds' picks which enemy pieces 'pieces': 'enemy' removes; one "
                      "piece of yours ('piece') has its own kind")
        return self


class ReplacePart(Strict):
    """Replace an enemy piece in the chosen clearing with one of the actor's (the Law's
    Replace, G.23: remove it, then place the new piece in its spot; Law 1.5.4, 3.2.1):
    the actor chooses which of the pieces that pass ``pieces`` (enemy pieces, or enemy
    pieces of a kind), as part of the action's option (the verb's option is then a piece
    and a clearing: '<verb> <piece> <clearing>').  The piece is removed as one removal
    event (the actor scores for a building or token, Law 3.2.1; what it sets off resolves
    as for any removal), and ``with`` is placed there: a building into the slot the
    removed building held (no open slot needed; replacing a warrior or token with a
    building needs one).  Offered only where both steps can be taken (G.23: "you cannot
    replace a piece unless you can take both steps"): a piece that passes is there, one
    of ``with`` is in the actor's supply, and no exclusive placement (a Keep, Law 6.2.2)
    forbids placing once the piece is gone."""

    op: Literal["replace"]
    pieces: Literal["enemy", "warrior", "building", "token"] | \
        list[Literal["warrior", "building", "token"]] = "enemy"
    """Which pieces may be replaced: any enemy piece ('enemy'), or an enemy piece of a
    kind, or of one of several kinds."""
    with_: Ref | OfSuit = Field(alias="with")
    """The actor's piece put in its place: a piece by id, 'warrior', or '$name'; or the
    first in the supply of the pieces of the chosen clearing's suit (Law 10.4.3,
    Sanctify: 'a garden of the Outcast suit', in a clearing matching the Outcast)."""

    def kinds(self) -> tuple[str, ...]:
        """The kinds of piece it may replace."""
        if self.pieces == "enemy":
            return ("warrior", "building", "token")
        return (self.pieces,) if isinstance(self.pieces, str) else tuple(self.pieces)


class IntoBoxPart(Strict):
    """Put pieces from the actor's supply into one of its boxes, as many as are left (Law
    8.5.3, an officer trained; 10.2.3, Revenge: the warriors removed while defending, in a
    trigger's program); or, 'from_box', the other way: out of the box back to the supply,
    as many as the box holds (Law 8.2.4, a base removed: half the officers, rounded up)."""

    op: Literal["into_box"]
    piece: Ref
    box: Ref
    """The box; a box parameter the use leaves out (null) leaves the part out."""
    count: Value = Field(default=1, json_schema_extra=ADDED_TO_LIBRARIES)
    """How many, as far as the supply allows (a value: Law 10.2.3, a trigger's
    ``{"event": "pieces"}``, the warriors its event removed)."""
    require: bool = True
    """Offer the action only while a piece is left to put in (from the box: only while
    the box holds 'count', a cost paid in full); false: put as many as there are."""
    from_box: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """Out of the box to the supply, not into it: Law 8.2.4 (an effect program's, half
    the officers lost); in an action's program a cost, Law 10.4.3 (spend acolytes,
    returning them to the supply)."""
    who: Who = Field(default="self", json_schema_extra=ADDED_TO_LIBRARIES)
    """Whose box, in an effect program ('holder': the ability's faction, Law 8.2.4)."""


class TakeHomePart(Strict):
    """The chosen clearing becomes the actor's home (Law 6.3.1: the Keep's corner, your
    starting corner; 7.3.1: the roost's corner, your home); the filters 'home' and
    'opposite_home' read it."""

    op: Literal["take_home"]


class SetStagePart(Strict):
    """Put one of the actor's cycles' markers on a stage: the one the program's first
    choice chose ('chosen': Law 10.3.3, the outcast marker on the suit space of the
    Cult's choice), one named, or the one 'by' stages on, round the ring: after the last
    stage comes the first (the Hedge Druids' wheel of the year).  A cycle is public.
    Moving on was first written as its own part, 'advance', with its 'cycle' and 'by'."""

    op: Literal["set_stage", "advance"]
    cycle: Ref
    """One of the faction's 'cycles' ('$name' of a cycle parameter)."""
    stage: Ident = "chosen"
    """'chosen' (the stage the first choice chose, of this cycle), or a stage of it."""
    by: Value | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Instead of a stage: move the marker on by this many stages (a value: a number,
    '$name' of a number parameter)."""

    @model_validator(mode="before")
    @classmethod
    def _old_spelling(cls, data: Any) -> Any:
        # 'advance' (its first spelling) is this part moving the marker on, 1 unless given.
        if isinstance(data, dict) and data.get("op") == "advance":
            if "stage" in data:
                raise Err("VALUE-INVALID", ("stage",),
                          "'advance' moves the marker on by 'by' stages: it names no stage")
            data = {**data, "op": "set_stage", "by": data.get("by", 1)}
        return data

    @model_validator(mode="after")
    def _stage_or_by(self) -> SetStagePart:
        if self.by is not None and "stage" in self.model_fields_set:
            raise Err("VALUE-INVALID", ("by",),
                      "set_stage puts the marker on a 'stage' or moves it on 'by' stages, "
                      "not both")
        return self


class SpendPart(Strict):
    """A cost: spend cards matching the chosen clearing (birds match any, Law 2.1.1) from
    one of the actor's zones or its hand, as many as a value says, before the parts
    after it; the actor chooses which whenever the place holds more cards than are owed
    (Law 8.4.1: revolt's supporters, 8.4.2 spread's; the Exiles deck's Propaganda
    Bureau, "spend a card" of the hand).  The action is offered only where the place
    holds enough."""

    op: Literal["spend"]
    source: Ref = Field(alias="from")
    """The zone the cards are spent from ('$name' of a zone parameter), or 'hand'."""
    matching: Literal["clearing"] = "clearing"
    """Cards whose suit matches the chosen clearing."""
    count: Value = 1
    """How many (read when the action is offered and when it is taken)."""


class PayPart(Strict):
    """A cost: pay pieces (tokens of one kind) from the chosen clearing or clearings
    connected to it through clearings the actor rules, back to the supply, as many as a
    value says, before the parts after it; the actor chooses the clearing whenever more
    than one can pay, one piece at a time (Law 6.5.4.II: a building's wood).  The action
    is offered only where enough can be reached."""

    op: Literal["pay"]
    piece: Ref
    """The piece paid (a token of the actor's)."""
    count: Value = 1
    """How many (read when the action is offered and when it is taken)."""


# ---- parts that score, draw and discard (the steps as programs; the deck's effects
# score and draw too)


Who = Literal["self", "target", "opponent", "holder"]
"""Whom a part is carried out for: the player running the program ('self'), or in an
effect program the player its user chose ('target'; a trigger's: the player who removed
or moved), the other side of the battle ('opponent') or the ability's holder ('holder':
in a trigger another player carries out, Law 8.2.6, the faction whose trigger it is);
the part's values are read as that player's ('rule': 'self' is theirs)."""


class ScorePart(Strict):
    """Score VP (Law 3.2), or with 'lose' lose them (Law 7.7.1: one per bird card in the
    Decree; a cost), never below 0: as many as a value says (none for 0; a negative
    number is refused: a loss is 'lose': true).  What the event gives as the reason
    follows from the value: a track's VP ('track_vp') is 'track', with the piece; cards
    counted in the columns are 'columns', with the suit; anything else 'effect'.  Royal
    Claim's 1 VP per ruled clearing (Law card text) is the value
    ``{"clearings": {"rule": "self"}}``.  ``lose_vp`` is the first spelling of a loss:
    ``{"op": "lose_vp", "vp": 1}`` is ``{"op": "score", "vp": 1, "lose": true}``."""

    op: Literal["score", "lose_vp"]
    vp: Value
    who: Who = Field(default="self", json_schema_extra=ADDED_LATER)
    """Who scores (or loses): in an effect program, 'target' or 'opponent' too."""
    lose: bool = Field(default=False, json_schema_extra=ADDED_TO_LIBRARIES)
    """Lose the VP instead of scoring them, never going below 0."""

    @model_validator(mode="before")
    @classmethod
    def _not_negative(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if data.get("op") == "lose_vp":
            if "lose" in data:
                raise Err("KEY-UNKNOWN", ("lose",), "'lose_vp' loses VP already: write "
                          "it without 'lose' (or write op 'score' with 'lose': true)")
            data = {**data, "op": "score", "lose": True}
        vp = data.get("vp")
        if isinstance(vp, int) and not isinstance(vp, bool) and vp < 0:
            raise Err("VALUE-INVALID", ("vp",),
                      f"a score of {vp} VP: a score is never negative; VP are lost with "
                      f"'lose': true (first written as the part 'lose_vp')")
        return data


class DrawPart(Strict):
    """Draw cards from the deck (Law 2.1; an empty deck is re-formed from the discard
    pile), as many as a value says: into the hand, or into one of the actor's zones
    ('into', Law 8.3.4; a full zone discards the card, 8.2.3.I)."""

    op: Literal["draw"]
    count: Value = 1
    into: Ref | None = None
    """A zone ('$name' of a zone parameter); the hand without."""
    who: Who = Field(default="self", json_schema_extra=ADDED_LATER)
    """Who draws: in an effect program, 'target' or 'opponent' too."""


class DiscardAllPart(Strict):
    """Discard every card of the actor's in a place (Law 7.7.2: the Decree's cards; a
    faction card goes back to its faction's reserve, a dominance card to the available
    ones, as a discard does), or only those matching the chosen clearing ('matching',
    birds included, Law 2.1.1: Law 8.2.4's supporters of a removed base's suit), or all
    but one suit's ('except_suit': the Partisans), or only one suit's ('suit': Law 12.6.1,
    the Duchy's Evening, "Discard any bird cards you revealed this turn")."""

    op: Literal["discard_all"]
    source: Ref = Field(alias="from")
    """'columns', 'hand', or a zone ('$name' of a zone parameter)."""
    matching: Literal["clearing"] | None = Field(default=None, json_schema_extra=ADDED_LATER)
    """Only the cards whose suit matches the chosen clearing (an effect program's: its
    clearing; none: nothing is discarded)."""
    except_suit: Suit | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Every card but those of this suit, birds discarded too unless it is 'bird' (the
    Exiles deck's Fox Partisans: "discard all your cards except foxes")."""
    suit: Suit | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Only the cards of this suit, as printed: 'bird' discards the birds alone, a
    clearing suit none of the birds (Law 12.6.1: "Discard any bird cards you revealed
    this turn, then return all other cards you revealed this turn to your hand", a
    'discard_all' of the birds then a 'put_all')."""

    @model_validator(mode="after")
    def _one_filter(self) -> DiscardAllPart:
        given = [k for k in ("matching", "except_suit", "suit")
                 if getattr(self, k) is not None]
        if len(given) > 1:
            raise Err("VALUE-INVALID", (given[-1],), " and ".join(f"'{k}'" for k in given) +
                      " are ways to choose the cards discarded: give one")
        return self


class PutAllPart(Strict):
    """Put every card of one of the actor's places into another: a zone's cards back into
    the hand (Law 10.6.1: the revealed cards returned in Evening), or the hand's into a
    zone.  A card put into a full zone is discarded (Law 8.2.3.I)."""

    op: Literal["put_all"]
    source: Ref = Field(alias="from")
    """'hand', or a zone ('$name' of a zone parameter)."""
    into: Ref
    """'hand', or a zone; not the place the cards come from."""


class ShowPart(Strict):
    """A player's hand is shown to another (Law 1.2.1 'show'; Codebreakers: the target's
    hand to you; Law 8.2.6: with no matching card, the hand shown to the Alliance): the
    viewer alone sees it, and keeps what it saw in its observation, a snapshot.  An
    effect program's part; an offer's program shows the card its first choice chose
    ('card': 'chosen')."""

    op: Literal["show"]
    who: Who = "self"
    """Whose hand is shown."""
    to: Who
    """Who sees it (another player than 'who')."""
    card: Literal["chosen"] | None = Field(default=None, json_schema_extra=ADDED_TO_LIBRARIES)
    """Not the hand: the card the program's first choice chose, of the actor's hand,
    shown to 'to' alone (a menu's or an offer's program; Law 13.2.4, Exposure: "show the
    Corvids a matching card").  Only the two of them know which it was."""

    @model_validator(mode="after")
    def _chosen_is_own(self) -> ShowPart:
        if self.card is not None and self.who != "self":
            raise Err("VALUE-INVALID", ("card",), "the 'chosen' card is the actor's, from "
                      "its own hand ('who': 'self')")
        return self


OtherwisePart = Annotated[ScorePart | DrawPart | ShowPart | DiscardAllPart,
                          Field(discriminator="op")]


class TakePart(Strict):
    """The one carrying out the program takes a card of its choice from the discard pile
    (face up, Law 2.1.3) into its hand: one of the kinds given, matching the program's
    clearing where 'matching' says so (birds count, Law 2.1.1.I).  With none there,
    nothing is taken (the Exiles deck's Informants: "take one ambush card from the
    discard pile"; the Vagabond's Scavenger, "take a card from the discard pile whose
    suit matches your clearing").  An effect program's part.  Or ('from':
    'others_here') a random card from the hand of each other player with a piece in the
    chosen clearing, in seat order from the taker, asking nothing (Law 13.7, Extortion:
    "take a random card from each enemy player with faction pieces in its clearing";
    the Vagabond's Steal, V.1): a program's part too, and an 'if''s."""

    op: Literal["take"]
    source: Literal["discard", "others_here"] = Field(default="discard", alias="from")
    """Where from: the discard pile, or the hands of the other players with a piece in
    the chosen clearing."""
    kind: list[Literal["item", "ambush", "persistent", "immediate"]] | None = \
        Field(default=None, min_length=1)
    """Only cards of these kinds; any card without (a dominance card is never in the
    pile: discarded, it goes to the available ones, Law 3.3.3)."""
    matching: Literal["clearing"] | None = None
    """Only cards whose suit matches the program's clearing (birds count)."""

    @model_validator(mode="after")
    def _from_hands_at_random(self) -> TakePart:
        if self.source == "others_here" and (self.kind or self.matching):
            raise Err("VALUE-INVALID", ("from",), "a card taken at random from another's "
                      "hand is any card: no 'kind' or 'matching'")
        return self


class GivePart(Strict):
    """A card leaves a player's hand ('who'; or its play area, 'from') for another
    player's hand or zone ('to', 'into'), or for the discard pile ('to': 'discard'): one
    the actor chooses of a play area ('pick': 'actor'), one the giver chooses ('pick':
    'choice'; Law 8.2.6, Outrage: 'must give the Alliance a matching card'), or one at
    random ('random': the k-th of the hand in card order, k from the game's dice; Stand
    and Deliver: 'take a random card from a player'; Law 10.2.5, Fear of the Faithful:
    'discard a random card').  'matching': only cards matching the program's clearing
    (birds count, Law 2.1.1.I; none: nothing happens).  With no card to give (an empty
    hand, or none matching), the parts of 'otherwise' run instead (Outrage: the hand is
    shown and the Alliance draws into its supporters).  A choice is asked whenever the
    giver's hand is not empty, whatever it holds (a public fact: Law 1.2), its options
    the cards that may be given, or 'done' when none may, 'done' running 'otherwise'.
    An effect program's part; a card into a full zone is discarded (Law 8.2.3.I)."""

    op: Literal["give"]
    who: Who = "self"
    """Who gives: whose hand the card leaves."""
    to: Who | Literal["discard"]
    """Who receives it (another player than 'who'), or 'discard': the discard pile."""
    into: Ref | None = None
    """A zone of the receiver's (its faction's zone id); the receiver's hand without."""
    pick: Literal["choice", "random", "actor", "chosen"] = "choice"
    """Who picks the card: the giver ('choice'), the dice ('random'), the one carrying
    out the program ('actor': only of a face-up place, 'from' the play area), or none:
    the card the program's first choice chose, from the actor's hand ('chosen': a menu's
    or an offer's program; Law 13.2.4, Exposure, "the enemy gives that card to the
    Corvids")."""
    source: Literal["hand", "play_area"] = Field(default="hand", alias="from",
                                                 json_schema_extra=ADDED_TO_LIBRARIES)
    """Where the card leaves from: the giver's hand, or its play area, one of its crafted
    (persistent) cards (Law 4.1.3; the Exiles deck's Saboteurs, "discard an enemy's
    crafted card"), picked by the actor."""
    matching: Literal["clearing"] | None = None
    """Only cards whose suit matches the program's clearing (birds count)."""
    count: Value = Field(default=1, json_schema_extra=ADDED_LATER)
    """How many cards, one after another, as far as the hand allows (at random only: Law
    10.2.5, 'whenever a garden is removed, discard a random card', a trigger's
    ``{"event": "pieces"}``, one for each garden its event removed)."""
    otherwise: list[OtherwisePart] = []
    """Parts run when there is no card to give."""

    @model_validator(mode="after")
    def _shape(self) -> GivePart:
        if self.count != 1 and self.pick != "random":
            raise Err("VALUE-INVALID", ("count",),
                      "'give' of a 'count' other than 1 picks at random ('pick': 'random')")
        if self.to == self.who:
            raise Err("VALUE-INVALID", ("to",),
                      f"'give' from {self.who!r} to {self.to!r}: a card is given to another "
                      "player (or 'discard')")
        if self.into is not None and self.to == "discard":
            raise Err("VALUE-INVALID", ("into",), "'into' a zone, and 'to' the discard pile")
        if (self.pick == "actor") != (self.source == "play_area"):
            raise Err("VALUE-INVALID", ("pick",), "a card of a play area (face up) is "
                      "picked by the actor ('pick': 'actor', 'from': 'play_area'); one of "
                      "a hand by its giver or at random")
        if self.pick == "chosen" and (self.who != "self" or self.to == "discard" or
                                      self.matching is not None):
            raise Err("VALUE-INVALID", ("pick",), "the 'chosen' card is the actor's own, "
                      "from its hand ('who': 'self'), given to another player (no "
                      "'matching': the choice said which)")
        if self.source == "play_area" and (self.who == "self" or self.matching is not None):
            raise Err("VALUE-INVALID", ("from",), "a card 'from' the play area is "
                      "another player's ('who'), whatever its suit (no 'matching')")
        return self

    model_config = ConfigDict(**Strict.model_config, populate_by_name=True)


def chosen_card_part(part: Any) -> bool:
    """A 'give' or 'show' of the card a program's choice chose ('pick' or 'card':
    'chosen'), to an offer's holder (Law 13.2.4): no effect program has one."""
    return (isinstance(part, GivePart) and part.pick == "chosen") or \
        (isinstance(part, ShowPart) and part.card == "chosen")


class BattlePart(Strict):
    """The actor initiates a battle in the chosen clearing (Law 4.3: it has a warrior
    there, another player a piece), choosing the defender among those players (asked
    when more than one may be, or when the battle may be declined); the parts after it
    run once the battle is over.  'optional': the actor may decline ('done': Law 10.4.3,
    'then, if you wish, initiate a battle'); without, a battle is fought whenever one can
    be (Law 15.5.2.II: 'you must initiate a battle there if any enemy pieces are
    there'), and with none to fight the parts after it run at once."""

    op: Literal["battle"]
    optional: bool = False
    """The actor may decline the battle (answer 'done')."""


class IfPart(Strict):
    """Carry out some parts while a condition holds, others (none unless given) while it
    does not: the parts carried out at once, with no choice or cost (Law 10.4.1: the
    suit with the most cards becomes the Outcast; if it already was, the marker flips to
    Hated; Law 7.4.1: if your hand is empty, draw a card)."""

    op: Literal["if"]
    if_: Condition = Field(alias="if")
    then: list[AtOncePart] = Field(min_length=1, max_length=20)
    else_: list[AtOncePart] = Field(default=[], alias="else", max_length=20)

    @model_validator(mode="after")
    def _asks_nothing(self) -> IfPart:
        for branch, parts in (("then", self.then), ("else", self.else_)):
            for k, x in enumerate(parts):
                if isinstance(x, GivePart) and x.pick != "chosen":
                    raise Err("VALUE-INVALID", (branch, k, "pick"), "an 'if' carries out "
                              "parts that ask nothing: its 'give' gives the chosen card "
                              "('pick': 'chosen')")
        return self


AtOncePart = Annotated[ScorePart | DrawPart | DiscardAllPart | PutAllPart |
                       SetStagePart | IfPart | DiscardPart | StopPart | TuckPart |
                       RemovePart | TakePart | GivePart | PlacePart | IntoBoxPart,
                       Field(discriminator="op")]
"""A part an 'if' may carry out: one that asks nothing and costs nothing.  A 'remove'
there is no cost: one of the actor's pieces is removed only where there is one, and
what the removal sets off waits while the program goes on, as anywhere (Law 13.7, the
bomb: "Whenever a bomb token is flipped, remove all enemy pieces in its clearing, then
remove the bomb token").  A 'give' there gives the card the first choice chose
('pick': 'chosen'; Law 13.2.4, a wrong guess: "the enemy gives that card to the
Corvids").  A 'place' there places where it can, or nothing: in the chosen clearing
(where there is one and no exclusive placement forbids it, Law 6.2.2) or in each
clearing of a filter, as far as the supply allows (Law 1.5.4), never a requirement of
the action (the Knaves' Revel, Law 18.5.1.4.5: "If acclaim is already in the Acting
Captain's clearing, place 2 Skunks there instead").  An 'into_box' there puts what
there is, up to its count, into the box or out of it, never a requirement ('require' is
not read: Law 12.2.3, the Price of Failure, "returns their swayed minister card of
highest rank": if a lord is swayed, a lord, else a noble...)."""


Instruction = Annotated[ChoosePart | DiscardPart | PutPart | PlacePart | RemovePart |
                        IntoBoxPart | SpendPart | PayPart | ScorePart | DrawPart |
                        DiscardAllPart | PutAllPart | ReplacePart | TakeHomePart |
                        SetStagePart | GivePart | ShowPart | IfPart | BattlePart | MovePart |
                        RevealPart | StopPart | TuckPart | SwapPart | TakePart,
                        Field(discriminator="op")]


def flat_parts(do: list, at: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every part of a program with where it is (its index, and inside an 'if' the
    branch and index), the parts an 'if' carries out after the 'if' itself."""
    for i, part in enumerate(do):
        yield (*at, i), part
        if isinstance(part, IfPart):
            yield from flat_parts(part.then, (*at, i, "then"))
            yield from flat_parts(part.else_, (*at, i, "else"))

EFFECT_PARTS = (ScorePart, DrawPart, RemovePart, DiscardAllPart, GivePart,
                ShowPart, IntoBoxPart, PlacePart, IfPart, DiscardPart, MovePart, TakePart)
"""The program parts an effect program may hold besides its ops (EffectOnlyOp): each is
compiled for its use (generator/programs.py compile_effect_part)."""

EffectOp = Annotated[
    (
        ScorePart | DrawPart | RemovePart | DiscardAllPart | GivePart |
        ShowPart | IntoBoxPart | PlacePart | HitsOp | Actions |
        DiscardDownTo | IfPart | DiscardPart | MovePart | TakePart
    ),
    Field(discriminator="op"),
]
"""One entry of an effect program: a program part (EFFECT_PARTS) or an effect op."""

EffectOnlyOp = Annotated[
    (
        HitsOp | Actions | DiscardDownTo | TakePart
    ),
    Field(discriminator="op"),
]
"""The ops only effect programs have (the catalogue's 'Effect ops'; 'take', a card of
the discard pile, is an effect program's alone too); the rest of an effect program is
program parts (EFFECT_PARTS)."""


# The engine's action types a program's first choice may be offered as (its verb), and
# what one option of each is: none (the action alone), a card (by its definition), a
# clearing, or a clearing and a card together, or a piece and a clearing together.  They
# are action types of the fixed action space (generator/tables.py ACTION_TYPES).  (Not the
# types of the engine's remaining menu routines: march's move, battle, craft; an action's
# type tells a menu's entries apart.)
VERB_SHAPES = {"recruit_all": "none", "mobilize": "card", "train": "card",
               "recruit": "clearing", "organize": "clearing", "spend_place": "clearing_card",
               "spread": "clearing", "revolt": "clearing", "build": "piece_clearing"}
# Any other verb is the content's own (a content verb): a new action type of the bundle,
# appended after the engine's (so a bundle without one has the engine's action space),
# whose options are one of its first choice's (SHAPE_WORDS), written as the verb followed
# by the option ('swallow 5').  A content verb is one word (no '-': it names a constant of
# the core), and none of the engine's words that are no verb: its other action types and
# the first words of their notation (ENGINE_WORDS; 'pay' is a suit's, 'recruit' recruit_all's).
ENGINE_WORDS = ("done", "clearing", "role", "move", "battle", "craft", "spend", "discard",
                "add", "remove", "activate", "take", "suit", "fail", "use", "first", "pay",
                "forest", "piece", "card", "number")
STEP_CHOICE_VERB = "clearing"
"""The verb of a step's program whose first choice is a clearing alone, offered as the
engine's 'clearing <n>' (the setups' corners, Law 6.3.1, 7.3.1; a new roost, 7.4.3): an
engine word, so no menu entry may run such a program (PROGRAM-USE)."""
SHAPE_WORDS = {"none": "the verb alone", "card": "verb card",
               "clearing": "verb clearing", "clearing_card": "verb card clearing",
               "piece_clearing": "verb piece clearing", "stage": "verb stage"}


def shape_chosen(prog: Program) -> str:
    """What a program's first part chooses, as a verb's shape ('none': no choice first;
    'nothing': a choice of nothing, PROGRAM-SHAPE's)."""
    first = prog.do[0]
    if not isinstance(first, ChoosePart):
        return "none"
    if first.number is not None:
        return "nothing"  # a number is a second choice's
    if first.stage is not None:
        # a cycle's stage (alone: PROGRAM-SHAPE for a stage with anything else)
        return "stage" if first.clearing is None and first.card is None and \
            first.piece is None else "nothing"
    if first.piece is None and first.card is None and first.clearing is not None and \
            any(isinstance(x, ReplacePart) for x in prog.do):
        return "piece_clearing"  # a clearing, and the piece a 'replace' replaces there
    if first.piece is not None:
        return "piece_clearing"
    if first.clearing is not None and first.card is not None:
        return "clearing_card"
    return "card" if first.card is not None else \
        "clearing" if first.clearing is not None else "nothing"


class Program(Strict):
    """A rule as a program: instructions run for one player (docs/language.md)."""

    law: str = ""
    """The Law section the program implements."""
    verb: ProgramName | None = None
    """The action's notation word and action type ('mobilize cobbler'): one of the
    engine's action types whose options are what the first choice chooses
    (``VERB_SHAPES``), or the content's own word, a new action type of the bundle
    (``ENGINE_WORDS``: which words it may not be).  A program that is no action (a
    step's: it chooses nothing) has none."""
    params: dict[ParamName, ParamType | Param] = {}
    """What a use of the program binds ('$zone' in the program; a menu entry's field of
    the same name): its type, or its type and a default for a use that leaves it out."""
    once_per_turn: bool | Literal["suit", "clearing"] = False
    """A limit: offered at most once in each of the actor's turns (true), or at most once
    a turn for each suit ('suit': the chosen card's, or the chosen clearing's when the
    first choice chooses no card; Law 10.5.3, a ritual 'only once per turn per suit') or
    for each clearing ('clearing': the chosen one)."""
    do: list[Instruction] = Field(min_length=1, max_length=100)

    def param_types(self) -> dict[str, str]:
        """Each parameter's type."""
        return {k: v if isinstance(v, str) else v.type for k, v in self.params.items()}

    def bind(self, fields: Mapping[str, Any]) -> dict[str, Any]:
        """The parameters a use's fields bind, defaults filled in; one with neither is
        left out of the result (PROGRAM-USE reports it)."""
        out: dict[str, Any] = {}
        for k, v in self.params.items():
            if k in fields:
                out[k] = fields[k]
            elif isinstance(v, Param):
                out[k] = v.default
        return out


class LibrarySpec(Strict):
    """Named programs any faction of the bundle may use (the base pack's is the
    standard library: docs/language.md)."""

    kind: Literal["library"]
    id: Ident
    name: str = ""
    programs: dict[ProgramName, Program]

    @model_validator(mode="after")
    def _not_an_engine_step(self) -> LibrarySpec:
        # A step whose 'op' is one of the engine's own is that step, never a program of
        # the name (a program 'stop' would be the engine's stop as a step).
        for name in self.programs:
            if name in ENGINE_STEP_OPS or name in STEP_FIRST_SPELLINGS:
                raise Err("VALUE-INVALID", ("programs", name),
                          f"{name!r} is one of the engine's steps: a program needs "
                          "another name")
        return self


# --------------------------------------------------------------------------- packs


MAX_REQUIRES = 64
"""Packs one pack may require: far more than any pack needs, few enough that a manifest
naming thousands (each looked for on the discovery path) is refused at once."""
MAX_CONTENT = 1000
"""Files one pack may list (the base game has five)."""


class PackSpec(Strict):
    kind: Literal["pack"]
    id: Ident
    name: str
    version: str = Field(default="0", max_length=64)
    """The pack's version, as its author numbers it: saves and logs record it (with the
    content hash of the pack's files) to name the pack they need."""
    requires: list[Ident] = Field(default=[], max_length=MAX_REQUIRES)
    """Packs this pack builds on (the base game is always loaded first): their content
    is loaded before this pack's, and only their documents may be patched by it."""
    content: list[Annotated[str, Field(max_length=1024)]] = Field(max_length=MAX_CONTENT)
    """Content files of the pack, relative to the manifest: maps, decks, factions and
    patches (kind 'patch'), applied in this order."""
    default_map: Ident | None = None
    """The map a game uses when no --map is given.  A pack may change the default a pack
    it requires sets; two packs that do not require each other may not set different
    ones."""
    default_deck: Ident | None = None
    """The deck a game uses when no --deck is given (the same rules as default_map)."""
    allow_code: bool = False
    """Reserved.  A data pack never runs code: rootlaw refuses a pack that sets this,
    since running code from packs is not supported."""


# --------------------------------------------------------------------------- patches

JsonPointer = Annotated[str, Field(pattern=r"^(/([^~/]|~[01])*)*$", max_length=512)]
"""An RFC 6901 JSON pointer: '' is the whole document, '/turn/daylight/1/count' a value
inside it ('~1' stands for '/' and '~0' for '~' in a key; '-' after an array is the
place past its last item)."""
PatchTarget = Annotated[str, Field(pattern=r"^(map|deck|faction):[a-z][a-z0-9-]*$",
                                   max_length=80)]


class _Operation(Strict):
    """One operation of a JSON Patch.  Its value may be any JSON: it is checked when the
    patched document is validated.  Members the RFC would ignore are refused here, as
    everywhere in rootlaw content: they are typos in practice ('vaule')."""


class AddOp(_Operation):
    """Add a value: a new key of an object, or an item inserted into an array before
    the index (or at its end with '-'); an existing key's value is replaced (RFC 6902
    4.1)."""

    op: Literal["add"]
    path: JsonPointer
    value: Any


class RemoveOp(_Operation):
    """Remove the value at path; it must exist (RFC 6902 4.2).  Removing a key that has
    a default gives the key its default back."""

    op: Literal["remove"]
    path: JsonPointer


class ReplaceOp(_Operation):
    """Replace the value at path, which must exist (RFC 6902 4.3)."""

    op: Literal["replace"]
    path: JsonPointer
    value: Any


class MoveOp(_Operation):
    """Remove the value at 'from' and add it at path (RFC 6902 4.4)."""

    op: Literal["move"]
    from_: JsonPointer = Field(alias="from")
    path: JsonPointer


class CopyOp(_Operation):
    """Add a copy of the value at 'from' at path (RFC 6902 4.5)."""

    op: Literal["copy"]
    from_: JsonPointer = Field(alias="from")
    path: JsonPointer


class TestOp(_Operation):
    """Check that the value at path equals value (the same JSON type and value: 1 is
    not true, and 1 is 1.0); when it does not, the whole pack fails to load (RFC 6902
    4.6).  Tests say what a patch expects, so a change it was not written for is caught."""

    __test__ = False  # not a pytest test class
    op: Literal["test"]
    path: JsonPointer
    value: Any


Operation = Annotated[AddOp | RemoveOp | ReplaceOp | MoveOp | CopyOp | TestOp,
                      Field(discriminator="op")]


class PatchSpec(Strict):
    """A patch: a JSON Patch (RFC 6902) applied to one document of a pack this pack
    requires (the base game is always required).  The patched document is validated
    like any content."""

    kind: Literal["patch"]
    target: PatchTarget
    """The document to change, as kind:id ('faction:marquise', 'map:autumn',
    'deck:standard')."""
    description: str = ""
    """What the patch changes, for people reading the pack."""
    patch: list[Operation] = Field(min_length=1, max_length=1000)
    """The operations, applied in order (RFC 6902): add, remove, replace, move, copy,
    test."""


Document = Annotated[PackSpec | MapSpec | DeckSpec | FactionSpec | PatchSpec | LibrarySpec,
                     Field(discriminator="kind")]


# Cards and abilities name effect programs and abilities defined after them.
for _m in (SumValue, IfValue, TimesValue, LeastValue, HalfValue, DividedValue, AtLeast,
           NotCondition, AllOf, AnyOf, Here, ForestFilter, ChoosePart, AtEachForest,
           ClearingFilter, ClearingCount, SpendPart, PlacePart, ScorePart, DrawPart,
           IntoBoxPart, IfPart, BattleAction, MarchAction, Actions, Turn):
    _m.model_rebuild()
Effect.model_rebuild()
Trigger.model_rebuild()
Card.model_rebuild()
DeckSpec.model_rebuild()
FactionSpec.model_rebuild()
