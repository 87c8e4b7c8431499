"""Derive dense integer tables, the state layout and the action space from a Bundle.

Everything the generated core knows about content arrives through this module: ids
become dense integers, lists become flat int64 tables addressed by named offsets.  The
template only loops and substitutes (see ``render.py``); all decisions live here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from rootlaw.spec import Bundle
from rootlaw.spec import models as M

SUITS = ("fox", "rabbit", "mouse", "bird")
SUIT = {s: i for i, s in enumerate(SUITS)}
ANY = 3  # a '?' cost icon shares the index of bird: both mean "any suit"
CARD_KINDS = ("item", "ambush", "dominance", "persistent", "immediate", "faction")
PIECE_KINDS = ("warrior", "building", "token")
MAX_COST = 4  # icons on the costliest card
MAX_DICE = 16  # battle rolls a scenario can queue
STOPS = ("end_of_turn", "end_of_phase")  # where a scenario can hold the turn (STOP_AT)

# Step ops, in catalogue order; the core dispatches on these codes.
STEP_OPS = ("place_at_buildings", "craft", "actions", "draw", "discard_down_to",
            "draw_if_hand_empty", "add_to_columns", "place_if_none", "resolve_columns",
            "score_track", "lose_vp_per_column_card", "discard_columns", "choose_role",
            "end_phase", "setup_home_token", "setup_warriors_everywhere",
            "setup_buildings_near_home", "setup_home_corner", "draw_to_zone")
MENU_ACTIONS = ("battle", "march", "recruit_all", "build", "spend_card_place", "craft",
                "spread", "revolt", "mobilize", "train", "recruit_at", "organize")
COLUMN_ACTIONS = ("recruit", "move", "battle", "build")
ABILITY_KINDS = ("rule_ties", "item_vp", "recruit_count", "attack_extra_hits",
                 "battle_removal_vp", "exclusive_placement", "rescue_removed_warriors",
                 "defender_takes_high_roll")

# Action types of the fixed action space, in order.  Each has a parameter shape.
# Menu entries reuse a type where the parameter means the same: recruit_at is
# 'recruit <clearing>', a craft entry 'craft <card>', a zone card paid 'spend <card>'.
ACTION_TYPES = ("done", "clearing", "role", "move", "battle", "build", "recruit_all",
                "recruit", "craft", "spend", "discard", "add", "spend_place", "remove",
                "activate", "take", "suit", "fail", "spread", "revolt", "mobilize", "train",
                "organize")


# Decision frames: what interrupts a step to ask a player (codes 1.., 0 = no frame).
# The runtime names the pending decision from these (Game.decision).
FRAME_KINDS = ("march", "ambush", "foil", "remove", "rescue", "pay", "place", "craft_any",
               "daylight_end", "zone_pay")

# 'actions' step counts that are not a number (STEP_A): any number, ending with 'done';
# or, at COUNT_BOX - b and below, one per warrior in the faction's box b.
COUNT_ANY = -1
COUNT_BOX = -2
ANY_NUMBER = 1 << 40  # actions left of an 'any number' step: never runs out


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
    frames: tuple[str, ...] = ()


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
    Partial("victory", always=True, frames=("daylight_end",)),
    Partial("pieces", always=True, frames=("place",)),
    Partial("frames", always=True),
    Partial("setup", always=True),
    Partial("turn", always=True),
    Partial("legal", always=True),
    Partial("apply", always=True),
    Partial("actions", ops=("actions",)),
    Partial("move", menu=("march",), columns=("move",), frames=("march",)),
    Partial("battle", menu=("battle",), columns=("battle",),
            frames=("ambush", "foil", "remove")),
    Partial("rescue", abilities=("rescue_removed_warriors",), frames=("rescue",)),
    Partial("build", menu=("build",), columns=("build",), frames=("pay",)),
    Partial("craft", ops=("craft",), menu=("craft",), frames=("craft_any",)),
    Partial("zones", ops=("draw_to_zone",), menu=("spread", "revolt", "mobilize", "train"),
            frames=("zone_pay",)),
    Partial("tokens", menu=("spread", "revolt", "organize")),
    Partial("columns", ops=("add_to_columns", "resolve_columns")),
    Partial("roles", ops=("choose_role",)),
    Partial("api", always=True),
    Partial("scenario", always=True),
)


@dataclass(frozen=True)
class Uses:
    """The primitives a bundle's content uses, and so what its core emits.  Every field
    is in catalogue order (never a set's order), so a bundle renders the same bytes in
    every process."""

    ops: tuple[str, ...]        # step ops (STEP_OPS)
    menu: tuple[str, ...]       # menu actions of 'actions' steps (MENU_ACTIONS)
    columns: tuple[str, ...]    # column actions (COLUMN_ACTIONS)
    abilities: tuple[str, ...]  # ability kinds (ABILITY_KINDS)
    partials: tuple[str, ...]   # the class body's partials, in PARTIALS order
    frames: tuple[str, ...]     # decision frames the emitted partials push (FRAME_KINDS)


def uses_of(ops: Iterable[str] = (), menu: Iterable[str] = (), columns: Iterable[str] = (),
            abilities: Iterable[str] = ()) -> Uses:
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
    emitted = [p for p in PARTIALS
               if p.always or set(p.ops) & set(u_ops) or set(p.menu) & set(u_menu)
               or set(p.columns) & set(u_columns) or set(p.abilities) & set(u_abilities)]
    frames = in_order(FRAME_KINDS, [fr for p in emitted for fr in p.frames])
    return Uses(u_ops, u_menu, u_columns, u_abilities, tuple(p.name for p in emitted), frames)


EVERYTHING = uses_of(STEP_OPS, MENU_ACTIONS, COLUMN_ACTIONS, ABILITY_KINDS)


def content_uses(bundle: Bundle) -> Uses:
    """The codes a bundle's factions use: steps of every program (setup, phases, hooks),
    menus of their 'actions' steps, column actions and ability kinds."""
    ops: list[str] = []
    menu: list[str] = []
    for f in bundle.factions:
        for steps in (f.setup, f.turn.birdsong, f.turn.daylight, f.turn.evening,
                      *f.hooks.values()):
            for s in steps:
                ops.append(s.op)
                if isinstance(s, M.Actions):
                    menu.extend(m.action for m in s.menu)
    return uses_of(ops, menu, [c.action for f in bundle.factions for c in f.columns],
                   [a.kind for f in bundle.factions for a in f.abilities])


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
    factions: list[str]
    pieces: list[str]
    cards: list[str]
    items: list[str]
    roles: list[list[str]]
    columns: list[list[str]]
    suits: list[str]
    edges: list[str]
    ops: list[str]
    frames: list[str]
    zones: list[list[str]]
    boxes: list[list[str]]
    zone_visibility: list[list[str]]


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

    def put(self, name: str, values: list[int]) -> None:
        off = self.table_layout.add(name, len(values))
        assert off == len(self.table)
        self.table.extend(int(v) for v in values)


def build_tables(bundle: Bundle) -> Tables:
    t = Tables(bundle_hash=bundle.hash, uses=content_uses(bundle))
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

    # ---- directed edges (paths both ways), in a stable order
    edges: list[tuple[int, int]] = []
    for a, b in sorted(m.paths):
        edges.append((cidx[a], cidx[b]))
        edges.append((cidx[b], cidx[a]))
    edges.sort()
    E = len(edges)

    consts = t.consts
    consts.update(C=C, F=F, P=P, NP=NP, K=K, N=N, I=I, L=L, R=R, E=E, W=W, Z=Z, B=B,
                  MAX_TRACK=max_track, MAX_DRAW_AT=max_draw_at, MAX_COST=MAX_COST,
                  FOX=0, RABBIT=1, MOUSE=2, BIRD=3, ANY=ANY,
                  PK_WARRIOR=0, PK_BUILDING=1, PK_TOKEN=2,
                  COUNT_ANY=COUNT_ANY, COUNT_BOX=COUNT_BOX, ANY_NUMBER=ANY_NUMBER)
    for prefix, codes in (("CK", CARD_KINDS), ("OP", STEP_OPS), ("MA", MENU_ACTIONS),
                          ("CA", COLUMN_ACTIONS), ("AB", ABILITY_KINDS)):
        for i, code in enumerate(codes):
            consts[f"{prefix}_{code.upper()}"] = i
    consts["NAB"] = len(ABILITY_KINDS)
    # Card locations (CARD_LOC values); hands, play areas and Decree columns are ranges.
    consts.update(LOC_DECK=0, LOC_DISCARD=1, LOC_OUT=2,  # out: removed from the game
                  LOC_RESERVE=3,                         # faction cards not in use
                  LOC_AVAILABLE=4,                       # discarded dominance (Law 3.3.3)
                  LOC_HAND=8, LOC_PLAY=8 + P,            # + seat
                  LOC_COLUMN=8 + 2 * P,                  # + seat * L + column
                  LOC_ZONE=8 + 2 * P + P * L)            # + seat * Z + zone
    for i, code in enumerate(FRAME_KINDS):
        consts[f"FR_{code.upper()}"] = i + 1

    # ---- map tables
    t.put("CLEARING_SUIT", [SUIT[clearings[c].suit] for c in c_ids])
    t.put("CLEARING_SLOTS", [clearings[c].slots for c in c_ids])
    t.put("CLEARING_RUIN", [int(clearings[c].ruin) for c in c_ids])
    t.put("CLEARING_CORNER", [int(clearings[c].corner) for c in c_ids])
    opp = [-1] * C
    for a, b in m.opposite_corners:
        opp[cidx[a]] = cidx[b]
        opp[cidx[b]] = cidx[a]
    t.put("OPPOSITE", opp)
    adj = [0] * (C * C)
    for a, b in edges:
        adj[a * C + b] = 1
    t.put("ADJ", adj)
    t.put("EDGE_FROM", [a for a, _ in edges])
    t.put("EDGE_TO", [b for _, b in edges])

    # ---- pieces
    t.put("PIECE_OWNER", [factions.index(f) for f, _, _ in pieces])
    t.put("PIECE_KIND", [PIECE_KINDS.index(p.kind) for _, _, p in pieces])
    t.put("PIECE_COUNT", [p.count for _, _, p in pieces])
    t.put("PIECE_PERMANENT", [int(p.permanent_removal) for _, _, p in pieces])
    t.put("PIECE_SUIT", [SUIT[p.suit] if p.suit else -1 for _, _, p in pieces])
    t.put("PIECE_PER_CLEARING", [p.per_clearing or 0 for _, _, p in pieces])  # 0: no limit
    vp, cost, draw = [], [], []
    for _, _, p in pieces:
        tr = p.track or M.Track()
        vp += list(tr.vp) + [tr.vp[-1] if tr.vp else 0] * (max_track - len(tr.vp))
        cost += list(tr.cost) + [0] * (max_track - len(tr.cost))
        draw += list(tr.draw_at) + [1 << 20] * (max_draw_at - len(tr.draw_at))
    t.put("TRACK_VP", vp)
    t.put("TRACK_COST", cost)
    t.put("TRACK_DRAW_AT", draw)
    t.put("FACTION_WARRIOR", [pidx[next(n for n, p in f.pieces.items() if p.kind == "warrior")]
                              for f in factions])
    t.put("FACTION_CRAFTING", [pidx[f.crafting_piece] if f.crafting_piece else -1
                               for f in factions])
    t.put("FACTION_FIRST_PIECE", [min(pidx[n] for n in f.pieces) for f in factions])
    t.put("FACTION_END_PIECE", [max(pidx[n] for n in f.pieces) + 1 for f in factions])

    # ---- zones (card piles apart from the hand) and boxes (warriors off the map)
    zone_cap, zone_lift, zone_public, box_piece = [], [], [], []
    for f in factions:
        for zi in range(Z):
            z = f.zones[zi] if zi < len(f.zones) else None
            zone_cap.append(-1 if z is None or z.capacity is None else z.capacity)
            zone_lift.append(sum(1 << pidx[b] for b in z.unlimited_while) if z else 0)
            zone_public.append(int(z is not None and z.visibility == "public"))
        for bi in range(B):
            box_piece.append(pidx[f.boxes[bi].piece] if bi < len(f.boxes) else -1)
    t.put("ZONE_CAP", zone_cap)        # [F][Z]: -1 no limit
    t.put("ZONE_LIFT", zone_lift)      # [F][Z]: buildings that lift the limit (bitmask)
    t.put("ZONE_PUBLIC", zone_public)  # [F][Z]
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
        # Only effects that exist as data are offered: items today (Law 4.1.2).
        craftable.append(int(d["kind"] == CARD_KINDS.index("item")))
    t.put("DEF_COST", cost_tab)  # [K][4]: fox, rabbit, mouse, any
    t.put("DEF_CRAFTABLE", craftable)
    t.put("CARD_DEF", phys)
    t.put("ITEM_SUPPLY", [bundle.deck.items[i] for i in items])

    # ---- abilities: value per faction and kind, and which roles switch them on
    ab_value = [0] * (F * len(ABILITY_KINDS))
    ab_roles = [0] * (F * len(ABILITY_KINDS))  # bitmask over roles; bit R = no role held
    for fi, f in enumerate(factions):
        for ab in f.abilities:
            ak = ABILITY_KINDS.index(ab.kind)
            val = {"rule_ties": 1, "item_vp": getattr(ab, "vp", 0),
                   "recruit_count": getattr(ab, "count", 0),
                   "attack_extra_hits": getattr(ab, "hits", 0),
                   "battle_removal_vp": getattr(ab, "vp", 0),
                   "exclusive_placement": pidx.get(getattr(ab, "token", ""), -1),
                   "rescue_removed_warriors": pidx.get(getattr(ab, "token", ""), -1),
                   "defender_takes_high_roll": 1}[ab.kind]
            granted_by = [ri for ri, r in enumerate(f.roles) if ab.id in r.abilities]
            if granted_by:
                mask = sum(1 << ri for ri in granted_by)
            else:
                mask = (1 << (R + 1)) - 1
                for ri, r in enumerate(f.roles):
                    if ab.id in r.suppress:
                        mask &= ~(1 << ri)
            ab_value[fi * len(ABILITY_KINDS) + ak] = val
            ab_roles[fi * len(ABILITY_KINDS) + ak] = mask
    t.put("AB_VALUE", ab_value)
    t.put("AB_ROLES", ab_roles)

    # ---- columns and roles
    col_action = [-1] * (F * L)
    col_building = [-1] * (F * L)
    for fi, f in enumerate(factions):
        for li, column in enumerate(f.columns):
            col_action[fi * L + li] = COLUMN_ACTIONS.index(column.action)
            col_building[fi * L + li] = pidx[column.building] if column.building else -1
    t.put("COL_ACTION", col_action)
    t.put("COL_BUILDING", col_building)
    t.put("FACTION_NCOLS", [len(f.columns) for f in factions])
    t.put("FACTION_NROLES", [len(f.roles) for f in factions])
    role_tuck = [0] * (F * R)  # bitmask of columns
    for fi, f in enumerate(factions):
        colids = [c.id for c in f.columns]
        for ri, r in enumerate(f.roles):
            role_tuck[fi * R + ri] = sum(1 << colids.index(c) for c in r.tuck)
    t.put("ROLE_TUCK", role_tuck)

    # ---- programs: every step of every faction in one flat table
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
    def emit(fi: int, steps: list) -> tuple[int, int]:
        f = factions[fi]
        zones = [z.id for z in f.zones]
        boxes = [x.id for x in f.boxes]
        start = len(ops)
        for s in steps:
            a = b = c = d = 0
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
                c = len(menu_kind)
                d = len(s.menu)
                for mn in s.menu:
                    ma = mb = mc = md = mmask = 0
                    if isinstance(mn, M.MarchAction):
                        ma = mn.moves
                    elif isinstance(mn, M.RecruitAllAction):
                        ma = pidx[mn.building]
                    elif isinstance(mn, M.BuildAction):
                        ma = pidx[mn.pay_token]
                        mmask = sum(1 << pidx[x] for x in mn.buildings)
                    elif isinstance(mn, M.SpendCardPlaceAction):
                        ma, mb = pidx[mn.building], pidx[mn.piece]
                    elif isinstance(mn, M.SpreadAction):
                        ma, mb = pidx[mn.token], zones.index(mn.zone)
                        mc, md = mn.surcharge_warriors or 0, mn.surcharge
                    elif isinstance(mn, M.RevoltAction):
                        ma, mb, mc = pidx[mn.token], zones.index(mn.zone), mn.cost
                        md = boxes.index(mn.box) if mn.box else -1
                        mmask = sum(1 << pidx[x] for x in mn.buildings)
                    elif isinstance(mn, M.MobilizeAction):
                        mb = zones.index(mn.zone)
                    elif isinstance(mn, M.TrainAction):
                        md = boxes.index(mn.box)
                        mmask = sum(1 << pidx[x] for x in mn.buildings)
                    elif isinstance(mn, M.RecruitAtAction):
                        mmask = sum(1 << pidx[x] for x in mn.buildings)
                    elif isinstance(mn, M.OrganizeAction):
                        ma = pidx[mn.token]
                    menu_kind.append(MENU_ACTIONS.index(mn.action))
                    menu_a.append(ma)
                    menu_b.append(mb)
                    menu_c.append(mc)
                    menu_d.append(md)
                    menu_mask.append(mmask)
            elif isinstance(s, M.Draw):
                a = s.count
                # Every building whose track's uncovered bonuses add to the draw.
                bonus = ([s.bonus_building] if s.bonus_building else []) + s.bonus_buildings
                d = sum(1 << pidx[x] for x in dict.fromkeys(bonus))
            elif isinstance(s, M.DrawToZone):
                a, b = s.count, zones.index(s.zone)
            elif isinstance(s, M.DiscardDownTo):
                a = s.limit
            elif isinstance(s, M.DrawIfHandEmpty):
                a = s.count
            elif isinstance(s, M.AddToColumns):
                a, b, c = s.min, s.max, s.max_bird
            elif isinstance(s, M.PlaceIfNone):
                a, b = pidx[s.building], s.warriors
            elif isinstance(s, M.ResolveColumns):
                a = hook_names.index((fi, s.on_fail))
            elif isinstance(s, M.ScoreTrack):
                a = pidx[s.building]
            elif isinstance(s, M.LoseVpPerColumnCard):
                a = SUIT[s.suit]
            elif isinstance(s, M.SetupHomeToken):
                a = pidx[s.token]
            elif isinstance(s, M.SetupWarriorsEverywhere):
                a = s.count
            elif isinstance(s, M.SetupBuildingsNearHome):
                d = sum(1 << pidx[x] for x in s.buildings)
            elif isinstance(s, M.SetupHomeCorner):
                a, b = pidx[s.building], s.warriors
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
    t.put("STEP_OP", ops or [0])
    t.put("STEP_A", pa or [0])
    t.put("STEP_B", pb or [0])
    t.put("STEP_C", pc or [0])
    t.put("STEP_D", pd or [0])
    t.put("MENU_KIND", menu_kind or [0])
    t.put("MENU_A", menu_a or [0])
    t.put("MENU_B", menu_b or [0])
    t.put("MENU_C", menu_c or [0])
    t.put("MENU_D", menu_d or [0])
    t.put("MENU_MASK", menu_mask or [0])
    t.put("SETUP_RANGE", [x for r in setup_r for x in r])
    t.put("PHASE_RANGE", [x for r in phase_r for x in r])  # [F][3][2]
    t.put("HOOK_RANGE", [x for r in hook_r for x in r] or [0, 0])
    t.put("SETUP_ORDER", sorted(range(F), key=lambda i: (factions[i].setup_order, i)))
    consts["NSTEPS"] = len(ops)
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
    A.add("spread", C)    # place the next token of a spread menu entry in a clearing
    A.add("revolt", C)    # revolt in a clearing
    A.add("mobilize", K)  # a hand card into the mobilize entry's zone
    A.add("train", K)     # spend a hand card to put a warrior into the train entry's box
    A.add("organize", C)  # remove a warrior to place the next token in its clearing
    consts["NACTIONS"] = A.size
    assert tuple(A.offsets) == ACTION_TYPES

    # ---- state layout
    S = t.state_layout
    for name, size in [
        ("RNG", 1), ("NPLAYERS", 1), ("CURRENT", 1), ("PHASE", 1), ("STEP", 1),
        ("STEP_END", 1), ("STEP_ENTERED", 1), ("OVER", 1), ("WINNER", 1), ("TURN", 1),
        ("DECISIONS", 1), ("SETUP_SEAT", 1), ("FIRST", 1),
        ("RET_STEP", 1), ("RET_END", 1),
        ("SEAT_FACTION", P), ("VP", P), ("HOME", P), ("ROLE", P), ("ROLES_RETIRED", P),
        ("DOMINANCE", P),
        # per-turn counters
        ("ACTIONS_LEFT", 1), ("RECRUITED", 1), ("CRAFT_USED", 4), ("MARCH_LEFT", 1),
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
        # decision frames: kind, player, a, b
        ("DEPTH", 1), ("FRAMES", 8 * 4),
        # battle
        ("B_STAGE", 1), ("B_ATT", 1), ("B_DEF", 1), ("B_AT", 1), ("B_HITS_ATT", 1),
        ("B_HITS_DEF", 1), ("B_AMBUSH", 1), ("B_RESCUE", P), ("B_SCORED_REMOVAL", P),
        ("B_REMOVED_BUILDING", P),
        # scenario aids (runtime/scenario.py): battle dice queued ahead of the game's own
        # (pairs high, low), and where the engine holds a turn for a scenario's checks;
        # empty and 0 in every game
        ("DICE_POS", 1), ("DICE_LEN", 1), ("DICE", 2 * MAX_DICE), ("STOP_AT", 1),
        ("STOPPED", 1),
    ]:
        S.add(name, size)
    consts["STATE_SIZE"] = S.size
    consts["MAX_DICE"] = MAX_DICE
    for i, code in enumerate(STOPS):
        consts[f"STOP_{code.upper()}"] = i + 1
    consts["MAX_FRAMES"] = 8

    t.names = {
        "clearings": [str(c) for c in c_ids],
        "factions": [f.id for f in factions],
        "pieces": [name for _, name, _ in pieces],
        "cards": [d["id"] for d in defs],
        "items": items,
        "roles": [[r.id for r in f.roles] for f in factions],
        "columns": [[c.id for c in f.columns] for f in factions],
        "suits": list(SUITS),
        "edges": [f"{c_ids[a]}-{c_ids[b]}" for a, b in edges],
        "ops": list(STEP_OPS),
        "frames": list(FRAME_KINDS),
        "zones": [[z.id for z in f.zones] for f in factions],
        "boxes": [[x.id for x in f.boxes] for f in factions],
        "zone_visibility": [[z.visibility for z in f.zones] for f in factions],
    }
    return t
