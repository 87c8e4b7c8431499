"""Pictures of a game: the board, its pieces and every faction's board, as one SVG.

Everything drawn comes from the bundle's content and the game state, so a homebrew map
or faction draws with no code: clearings from the map spec (suits, building slots,
ruins, corners; positions from the map or laid out by ``layout.py``), paths, rivers and
forests; every piece on the map, counted; per seat the score, hand size, the tracks of
its pieces (covered and uncovered spaces with their costs, VP and card-draw bonuses),
its supply, roles, columns and their cards, crafted items and an activated dominance
card; and whose turn it is and what is being decided.

A picture is a static layer (the map, the same for the whole game) plus named parts,
each drawn in its own coordinates and put in place by a translation.  ``render_svg``
joins them; the replay viewer stores the static layer once and each distinct part once,
and joins them the same way in the browser (``compose`` is the one definition of how).
The output depends on nothing but the game: same game, same bytes.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from html import escape

from rootlaw.spec import Bundle
from rootlaw.spec.models import FactionSpec, MapSpec

from .game import VICTORY_POINTS, Game
from .layout import clearing_positions

# ---------------------------------------------------------------------- geometry

HEADER_H = 64
MAP_W, MAP_H = 880, 800
MAP_MARGIN = 74          # clearing centres stay this far inside the map area
R = 52                   # clearing radius
PANEL_X = MAP_W + 16
PANEL_W = 500
WIDTH = PANEL_X + PANEL_W + 12
GAP = 10
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
DOT = " \u00b7 "

SUIT_COLOURS = {"fox": "#d3402b", "rabbit": "#e9b91c", "mouse": "#b8772e", "bird": "#4ba3c7"}
SUIT_TINTS = {"fox": "#f6d9d2", "rabbit": "#faf0c8", "mouse": "#efdcc7", "bird": "#d9edf5"}
PAPER = "#f3ead3"
INK = "#2b2620"
PATH_COLOUR = "#c8b07c"
RIVER_COLOUR = "#3d86c6"
FOREST_COLOUR = "#5c8a45"
RUIN_COLOUR = "#7d7368"

STYLE = (
    ".num{font-weight:bold;font-size:16px;text-anchor:middle;dominant-baseline:central}"
    ".c{text-anchor:middle;dominant-baseline:central}"
    ".b{font-weight:bold}"
    ".s{font-size:12px}"
    ".t{font-size:13px}"
    ".h{font-size:15px;font-weight:bold}"
)


def _n(v: float) -> str:
    """A coordinate as short, stable text."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


def _t(text: object) -> str:
    return escape(str(text), quote=True)


def _label(ident: str) -> str:
    return ident.replace("-", " ")


# ---------------------------------------------------------------------- colours


def faction_colour(f: FactionSpec) -> str:
    """The faction's ``color``, or one derived from its id (stable across runs)."""
    if f.color:
        return f.color.lower()
    h = int.from_bytes(hashlib.sha256(f.id.encode()).digest()[:4], "big")
    hue = h % 360
    sat = 0.55 + (h >> 9) % 20 / 100
    light = 0.38 + (h >> 17) % 12 / 100
    return _hsl(hue, sat, light)


def _hsl(h: float, s: float, lum: float) -> str:
    c = (1 - abs(2 * lum - 1)) * s
    x = c * (1 - abs((h / 60) % 2 - 1))
    m = lum - c / 2
    r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x)][int(h // 60) % 6]
    return "#" + "".join(f"{round((v + m) * 255):02x}" for v in (r, g, b))


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on the colour."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#ffffff" if lum < 0.6 else INK


def suit_colour(suit: str) -> str:
    return SUIT_COLOURS.get(suit, "#888888")


def lab(colour: str) -> tuple[float, float, float]:
    """The colour (#rrggbb, sRGB) in CIELAB (D65 white)."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a: str, b: str) -> float:
    """How far apart two colours look: CIE76 delta E (Euclidean in CIELAB; about 2 is
    the least difference people notice, and side by side 25 and more reads as two)."""
    return math.dist(lab(a), lab(b))


SEPARATE = 25.0  # delta E: a halo at least this far from both colours keeps them apart


def halo_on(colour: str) -> str:
    """The outline that keeps a faction's colour apart from whatever it touches (a suit's
    rim, a clearing's tint, a path): the ink, or white for a colour too near the ink."""
    return INK if colour_distance(colour, INK) >= SEPARATE else "#ffffff"


# ---------------------------------------------------------------------- the static map


@dataclass(frozen=True)
class MapLook:
    """Where the map's clearings and forests are drawn (pixels of the picture)."""

    centres: dict[int, tuple[float, float]]
    svg: str             # under the pieces: board, forests, paths, rivers, clearings
    labels: str          # over the pieces: clearing numbers and suits
    forests: dict[str, tuple[float, float]] = field(default_factory=dict)  # their middles


_MAP_CACHE: dict[str, MapLook] = {}


def map_look(bundle: Bundle) -> MapLook:
    look = _MAP_CACHE.get(bundle.hash + bundle.map.id)
    if look is None:
        look = _MAP_CACHE[bundle.hash + bundle.map.id] = _draw_map(bundle.map)
    return look


def _draw_map(m: MapSpec) -> MapLook:
    pos = clearing_positions(m)
    span_x, span_y = MAP_W - 2 * MAP_MARGIN, MAP_H - 2 * MAP_MARGIN
    centres = {cid: (MAP_MARGIN + x / 100 * span_x, HEADER_H + MAP_MARGIN + y / 100 * span_y)
               for cid, (x, y) in pos.items()}
    out = [f'<rect x="4" y="{HEADER_H + 4}" width="{MAP_W - 8}" height="{MAP_H - 8}" rx="18" '
           f'fill="{PAPER}" stroke="#b9a77f" stroke-width="3"/>']
    # Forests: the face between their clearings, drawn smaller so paths stay clear.
    out.append('<g class="forests">')
    middles: dict[str, tuple[float, float]] = {}
    for f in m.forests:
        pts = [centres[c] for c in f.clearings if c in centres]
        if len(pts) < 2:
            continue
        cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
        middles[f.id] = (cx, cy)
        pts.sort(key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
        shrunk = " ".join(f"{_n(cx + 0.4 * (x - cx))},{_n(cy + 0.4 * (y - cy))}"
                          for x, y in pts)
        out.append(f'<g class="forest" data-id="{_t(f.id)}">'
                   f'<polygon points="{shrunk}" fill="{FOREST_COLOUR}" fill-opacity="0.16" '
                   f'stroke="{FOREST_COLOUR}" stroke-opacity="0.35" stroke-width="2" '
                   f'stroke-linejoin="round"/>' + _tree(cx, cy) + '</g>')
    out.append("</g>")
    out.append(f'<g class="paths" fill="none" stroke="{PATH_COLOUR}" stroke-width="10" '
               f'stroke-linecap="round">')
    for a, b in m.paths:
        out.append(f'<path class="path" d="{_link(a, b, centres)}"/>')
    out.append("</g>")
    out.append(f'<g class="rivers" fill="none" stroke="{RIVER_COLOUR}" stroke-width="5" '
               f'stroke-dasharray="12 7" stroke-linecap="round">')
    for a, b in m.rivers:
        out.append(f'<path class="river" d="{_link(a, b, centres)}"/>')
    out.append("</g>")
    out.append('<g class="clearings">')
    over = ['<g class="labels">']
    for c in sorted(m.clearings, key=lambda c: c.id):
        x, y = centres[c.id]
        colour = suit_colour(c.suit)
        parts = [f'<g class="clearing" id="clearing-{c.id}" data-suit="{_t(c.suit)}" '
                 f'data-slots="{c.slots}">']
        parts.append(f'<title>clearing {c.id}: {_t(c.suit)}, {c.slots} slot'
                     f'{"" if c.slots == 1 else "s"}{", corner" if c.corner else ""}</title>')
        if c.corner:
            parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{R + 15}" fill="none" '
                         f'stroke="{INK}" stroke-opacity="0.45" stroke-width="2" '
                         f'stroke-dasharray="5 5"/>')
        parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{R}" '
                     f'fill="{SUIT_TINTS.get(c.suit, "#eeeeee")}" stroke="{colour}" '
                     f'stroke-width="5"/></g>')
        out.append("".join(parts))
        # Number and suit badges go over the pieces' layer, so a ruler's ring never hides them.
        nx, ny = x - R * 0.74, y - R * 0.74
        sx, sy = x + R * 0.74, y - R * 0.74
        over.append(f'<g class="label" data-clearing="{c.id}">'
                    f'<circle cx="{_n(nx)}" cy="{_n(ny)}" r="15" fill="#ffffff" '
                    f'stroke="{INK}" stroke-width="2"/>'
                    f'<text class="num" x="{_n(nx)}" y="{_n(ny)}">{c.id}</text>'
                    f'<circle cx="{_n(sx)}" cy="{_n(sy)}" r="16" fill="{colour}" '
                    f'stroke="#ffffff" stroke-width="2"/>{_suit_icon(sx, sy, c.suit)}</g>')
    out.append("</g>")
    over.append("</g>")
    return MapLook(centres=centres, svg="".join(out), labels="".join(over), forests=middles)


def _link(a: int, b: int, centres: dict[int, tuple[float, float]]) -> str:
    """A path or river from a to b: straight, or bent around a clearing in its way."""
    (x1, y1), (x2, y2) = centres[a], centres[b]
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    clear = R + 26  # the clearing, its corner ring and its number badge
    worst = None
    for c, (x, y) in sorted(centres.items()):
        if c in (a, b):
            continue
        t = ((x - x1) * dx + (y - y1) * dy) / (length * length)
        if not 0.05 < t < 0.95:
            continue
        side = (x - x1) * nx + (y - y1) * ny
        if abs(side) < clear and (worst is None or abs(side) < abs(worst[1])):
            worst = (t, side)
    if worst is None:
        return f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}"
    t, side = worst
    # A quadratic curve is offset 2t(1-t)k at t: bend just enough, away from the clearing.
    k = min((clear - abs(side)) / (2 * t * (1 - t)), 3.0 * R)
    k = -k if side > 0 else k
    mx, my = (x1 + x2) / 2 + nx * k, (y1 + y2) / 2 + ny * k
    return f"M{_n(x1)} {_n(y1)}Q{_n(mx)} {_n(my)} {_n(x2)} {_n(y2)}"


def _suit_icon(x: float, y: float, suit: str) -> str:
    """A white animal head for a suit (Root's suits are animals); a letter otherwise."""
    w = "#ffffff"
    shapes = {
        "fox": f'<path d="M-9 -9L-4 -4H4L9 -9L8.5 0L0 9L-8.5 0Z" fill="{w}"/>',
        "rabbit": (f'<ellipse cx="-3.5" cy="-5.5" rx="2.6" ry="6.5" fill="{w}"/>'
                   f'<ellipse cx="3.5" cy="-5.5" rx="2.6" ry="6.5" fill="{w}"/>'
                   f'<circle cy="4" r="6" fill="{w}"/>'),
        "mouse": (f'<circle cx="-5.8" cy="-5" r="4.4" fill="{w}"/>'
                  f'<circle cx="5.8" cy="-5" r="4.4" fill="{w}"/>'
                  f'<ellipse cy="2.5" rx="5.6" ry="6.5" fill="{w}"/>'),
        "bird": f'<path d="M-9 3Q-2 -10 9 -7Q2 -3 4 7Q-2 2 -9 3Z" fill="{w}"/>',
    }
    shape = shapes.get(suit)
    if shape is None:
        return (f'<text class="c b t" x="{_n(x)}" y="{_n(y)}" fill="{w}">'
                f'{_t(suit[:1].upper())}</text>')
    return f'<g transform="translate({_n(x)} {_n(y)})">{shape}</g>'


def _tree(x: float, y: float) -> str:
    return (f'<path d="M{_n(x)} {_n(y - 13)} l-10 17 h20 z" fill="{FOREST_COLOUR}" '
            f'fill-opacity="0.8"/><rect x="{_n(x - 2)}" y="{_n(y + 4)}" width="4" height="6" '
            f'fill="#6b4f2a"/>')


# ---------------------------------------------------------------------- what is shown


@dataclass(frozen=True)
class PieceLook:
    name: str
    kind: str            # warrior, building, token
    seat: int
    colour: str
    mark: str            # the letters drawn on it


def _marks(f: FactionSpec) -> dict[str, str]:
    """Short, distinct letters for each building (upper case) and token (lower case)."""
    out: dict[str, str] = {}
    for kind in ("building", "token"):
        names = [n for n, p in f.pieces.items() if p.kind == kind]
        letters = {n: n.replace("-", "") for n in names}
        for n in names:
            for size in range(1, 4):
                pre = letters[n][:size]
                if sum(1 for m in names if letters[m][:size] == pre) == 1:
                    break
            else:
                pre = letters[n][:2] + str(names.index(n) + 1)
            out[n] = pre.capitalize() if kind == "building" else pre.lower()
    return out


class _View:
    """The facts a picture shows, read once from a game."""

    def __init__(self, g: Game, seat: int | None):
        self.g = g
        self.seat = seat
        self.bundle = g.bundle
        self.specs = [g.bundle.faction(fid) for fid in g.factions]
        self.colours = [faction_colour(f) for f in self.specs]
        self.obs = g.observation(0 if seat is None else seat)
        st, S = g.state, g.S
        self.pieces: dict[str, PieceLook] = {}
        for seat_i, f in enumerate(self.specs):
            marks = _marks(f)
            for name, p in f.pieces.items():
                self.pieces[name] = PieceLook(name, p.kind, seat_i, self.colours[seat_i],
                                              marks.get(name, ""))
        names = g.names
        self.piece_index = {n: i for i, n in enumerate(names["pieces"])}
        self.supply = {n: st[S["SUPPLY"] + i] for n, i in self.piece_index.items()}
        self.out = {n: st[S["OUT"] + i] for n, i in self.piece_index.items()}
        NP = g.consts["NP"]
        self.board: dict[int, dict[str, int]] = {}
        self.ruins: dict[int, int] = {}
        for ci, cname in enumerate(names["clearings"]):
            cid = int(cname)
            self.board[cid] = {names["pieces"][pc]: st[S["BOARD"] + ci * NP + pc]
                               for pc in range(NP) if st[S["BOARD"] + ci * NP + pc]}
            self.ruins[cid] = st[S["RUINS"] + ci]
        self.on_map = dict.fromkeys(self.piece_index, 0)
        for row in self.board.values():
            for n, k in row.items():
                self.on_map[n] += k
        self.rulers = {cid: g.ruler(str(cid)) for cid in self.board}
        self.battle = None
        if st[S["B_STAGE"]] != 0:
            at = int(names["clearings"][st[S["B_AT"]]])
            self.battle = (at, st[S["B_ATT"]], st[S["B_DEF"]])
        self.roles_retired = [st[S["ROLES_RETIRED"] + q] for q in range(g.num_players)]
        self.cards = {c.id: (c.name, c.suit) for c in g.bundle.deck.cards}
        for f in self.specs:
            self.cards.update({c.id: (c.name, c.suit) for c in f.cards})


# ---------------------------------------------------------------------- piece glyphs


def _warrior(x: float, y: float, colour: str, count: int, title: str) -> str:
    return (f'<g class="warrior"><title>{_t(title)}</title>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="12.5" fill="{colour}" stroke="{INK}" '
            f'stroke-width="1.5"/><text class="c b t" x="{_n(x)}" y="{_n(y)}" '
            f'fill="{ink_on(colour)}">{count}</text></g>')


def _building(x: float, y: float, colour: str, mark: str, title: str) -> str:
    return (f'<g class="building"><title>{_t(title)}</title>'
            f'<rect x="{_n(x - 11)}" y="{_n(y - 11)}" width="22" height="22" rx="3" '
            f'fill="{colour}" stroke="{INK}" stroke-width="1.5"/>'
            f'<text class="c b t" x="{_n(x)}" y="{_n(y)}" fill="{ink_on(colour)}">'
            f'{_t(mark)}</text></g>')


def _ruin(x: float, y: float) -> str:
    return (f'<g class="ruin"><title>ruin</title><rect x="{_n(x - 11)}" y="{_n(y - 11)}" '
            f'width="22" height="22" rx="3" fill="{RUIN_COLOUR}" stroke="{INK}" '
            f'stroke-width="1.5"/><path d="M{_n(x - 6)} {_n(y + 7)} v-8 l6 -6 l6 6 v8 z" '
            f'fill="none" stroke="#e8e0d4" stroke-width="2"/></g>')


def _open_slot(x: float, y: float) -> str:
    return (f'<rect class="slot" x="{_n(x - 11)}" y="{_n(y - 11)}" width="22" height="22" '
            f'rx="3" fill="#ffffff" stroke="{RUIN_COLOUR}" stroke-width="1.5"/>')


def _token_text(mark: str, count: int) -> str:
    return mark if count == 1 else f"{mark}{count}"


def _token(x: float, y: float, colour: str, mark: str, count: int, title: str) -> str:
    text = _token_text(mark, count)
    w = 10 + 8.2 * len(text)
    # The faction's stroke between two edges of its halo: whatever colour the clearing
    # under it is, a yellow token on a rabbit clearing too.
    return (f'<g class="token"><title>{_t(title)}</title>'
            f'<rect class="halo" x="{_n(x)}" y="{_n(y - 9)}" width="{_n(w)}" height="18" '
            f'rx="9" fill="#ffffff" stroke="{halo_on(colour)}" stroke-width="5"/>'
            f'<rect x="{_n(x)}" y="{_n(y - 9)}" width="{_n(w)}" height="18" rx="9" '
            f'fill="#ffffff" stroke="{colour}" stroke-width="3"/>'
            f'<text class="c b t" x="{_n(x + w / 2)}" y="{_n(y)}" fill="{INK}">{_t(text)}</text>'
            f'</g>')


def _row_x(widths: list[float], cx: float, gap: float = 4) -> list[float]:
    """Left edges of items of these widths, centred on cx."""
    total = sum(widths) + gap * (len(widths) - 1)
    xs, x = [], cx - total / 2
    for w in widths:
        xs.append(x)
        x += w + gap
    return xs


# ---------------------------------------------------------------------- parts


@dataclass(frozen=True)
class Part:
    """A piece of the picture drawn in its own coordinates, placed at (x, y)."""

    slot: str
    x: float
    y: float
    svg: str


@dataclass(frozen=True)
class Picture:
    width: int
    height: int
    static: str          # the map under the parts
    parts: tuple[Part, ...]
    overlay: str         # the map's labels over the parts


def open_tag(width: int, height: int) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="13" '
            f'fill="{INK}">')


def place(q: Part) -> str:
    """Where a part goes: the arguments of its translation."""
    return f"{_n(q.x)} {_n(q.y)}"


def compose(p: Picture) -> str:
    """The SVG document of a picture (the replay viewer joins parts the same way)."""
    body = "".join(f'<g id="{q.slot}" transform="translate({place(q)})">{q.svg}</g>'
                   for q in p.parts)
    return open_tag(p.width, p.height) + p.static + body + p.overlay + "</svg>\n"


def static_layer(bundle: Bundle) -> str:
    return (f"<style>{STYLE}</style>"
            f'<rect width="100%" height="100%" fill="#fbf8f0"/>' + map_look(bundle).svg)


def picture(g: Game, seat: int | None = None) -> Picture:
    """The game as a static layer and placed parts (see ``compose``)."""
    if seat is not None:
        g._seat(seat)
    v = _View(g, seat)
    look = map_look(g.bundle)
    parts = [Part("header", 0, 0, _header(v))]
    for cid in sorted(look.centres):
        x, y = look.centres[cid]
        parts.append(Part(f"c{cid}", x, y, _clearing(v, cid)))
    for fid, pieces in g.forest_counts().items():
        if pieces and fid in look.forests:
            x, y = look.forests[fid]
            parts.append(Part(f"f{fid}", x, y, _forest(v, pieces)))
    y = float(HEADER_H)
    for q in range(g.num_players):
        for name, draw in (("head", _panel_head), ("tracks", _panel_tracks),
                           ("cards", _panel_cards)):
            svg, h = draw(v, q)
            parts.append(Part(f"p{q}-{name}", PANEL_X, y, svg))
            y += h
        y += GAP
    svg, h = _shared(v)
    parts.append(Part("shared", PANEL_X, y, svg))
    y += h
    height = int(max(HEADER_H + MAP_H, y) + GAP)
    return Picture(WIDTH, height, static_layer(g.bundle), tuple(parts), look.labels)


def render_svg(game: Game, seat: int | None = None) -> str:
    """The board, every piece and every faction's board as one self-contained SVG.
    ``seat`` shows what that seat sees (its own hand); None shows public facts only."""
    return compose(picture(game, seat))


# ---------------------------------------------------------------------- header


def _header(v: _View) -> str:
    g = v.g
    o = v.obs
    if o["over"]:
        w = o["winner"]
        status = (f"Game over: {v.bundle.faction(w).name} wins" if w else
                  "Game stopped without a winner")
        ask = f"after {len(g.history)} decisions"
    else:
        cur = v.specs[o["current"]].name
        status = f"Turn {o['turn']}{DOT}{o['phase']}{DOT}{cur}"
        who = v.specs[o["to_play"]]
        ask = f"to decide: {who.name} \u2014 {_label(o['decision'] or '')}"
        if v.battle:
            at, att, dfn = v.battle
            ask += (f"{DOT}battle in {at}: {v.specs[att].name} attacks "
                    f"{v.specs[dfn].name}")
    seen = "public view" if v.seat is None else f"seen by {v.specs[v.seat].name}"
    return (f'<rect width="{WIDTH}" height="{HEADER_H - 6}" fill="{INK}"/>'
            f'<text x="16" y="25" font-size="19" class="b" fill="#ffffff">{_t(status)}</text>'
            f'<text x="16" y="47" font-size="14" fill="#e9dfc6">{_t(ask)}</text>'
            f'<text x="{WIDTH - 16}" y="25" font-size="12" fill="#c9bea4" '
            f'text-anchor="end">decision {len(g.history)}{DOT}{_t(seen)}</text>'
            f'<text x="{WIDTH - 16}" y="47" font-size="12" fill="#c9bea4" '
            f'text-anchor="end">{_t(v.bundle.map.name)}</text>')


# ---------------------------------------------------------------------- clearings


def _clearing(v: _View, cid: int) -> str:
    """Pieces in a clearing, drawn around its centre (0, 0): warriors above the building
    slots, tokens below; the ruler as a ring in its colour."""
    out = []
    ruler = v.rulers.get(cid)
    if ruler is not None:
        colour = v.colours[v.g.factions.index(ruler)]
        # Outlined by a halo on both sides, so the ring never melts into the suit's rim
        # beside it (a yellow faction on a rabbit clearing).
        out.append(f'<circle class="halo" r="{R + 7}" fill="none" stroke="{halo_on(colour)}" '
                   f'stroke-width="9"/>'
                   f'<circle class="ruler" data-faction="{_t(ruler)}" r="{R + 7}" fill="none" '
                   f'stroke="{colour}" stroke-width="6"/>')
    if v.battle and v.battle[0] == cid:
        out.append(f'<circle class="battle" r="{R + 17}" fill="none" stroke="#c0182b" '
                   f'stroke-width="4" stroke-dasharray="3 4"/>')
    row = v.board.get(cid, {})
    warriors: list[tuple[PieceLook, int]] = []
    buildings: list[tuple[PieceLook, int]] = []
    tokens: list[tuple[PieceLook, int]] = []
    for name in sorted(row, key=lambda n: (v.pieces[n].seat, v.piece_index[n])):
        p = v.pieces[name]
        {"warrior": warriors, "building": buildings, "token": tokens}[p.kind].append(
            (p, row[name]))
    xs = _row_x([25.0] * len(warriors), 0)
    for (p, k), x in zip(warriors, xs, strict=True):
        out.append(_warrior(x + 12.5, -20, p.colour, k,
                            f"{k} {_label(p.name)}{'' if k == 1 else 's'}"))
    # Building slots: buildings, then ruins, then open slots (rows of three).
    slots: list[str | None | PieceLook] = []
    for p, k in buildings:
        slots += [p] * k
    slots += [None] * v.ruins.get(cid, 0)
    spec_slots = next(c.slots for c in v.bundle.map.clearings if c.id == cid)
    slots += ["open"] * max(0, spec_slots - len(slots))
    for r0 in range(0, len(slots), 3):
        chunk = slots[r0:r0 + 3]
        sy = 8 + 26 * (r0 // 3)
        for s, x in zip(chunk, _row_x([22.0] * len(chunk), 0), strict=True):
            if s == "open":
                out.append(_open_slot(x + 11, sy))
            elif s is None:
                out.append(_ruin(x + 11, sy))
            else:
                assert isinstance(s, PieceLook)
                out.append(_building(x + 11, sy, s.colour, s.mark, _label(s.name)))
    if tokens:
        ty = 8 + 26 * ((len(slots) + 2) // 3) - 2
        widths = [10 + 8.2 * len(_token_text(p.mark, k)) for p, k in tokens]
        for (p, k), x in zip(tokens, _row_x(widths, 0), strict=True):
            out.append(_token(x, ty, p.colour, p.mark, k, f"{k} {_label(p.name)}"))
    return "".join(out)


def _forest(v: _View, row: dict[str, int]) -> str:
    """Pieces in a forest (Law 15.3.1), drawn as tokens in a row around its middle."""
    looks = [(v.pieces[n], row[n]) for n in sorted(row, key=lambda n: (v.pieces[n].seat,
                                                                      v.piece_index[n]))]
    widths = [10 + 8.2 * len(_token_text(p.mark, k)) for p, k in looks]
    return "".join(_token(x, 0, p.colour, p.mark, k, f"{k} {_label(p.name)} in the forest")
                   for (p, k), x in zip(looks, _row_x(widths, 0), strict=True))


# ---------------------------------------------------------------------- faction panels


def _panel_head(v: _View, q: int) -> tuple[str, float]:
    f, colour, o = v.specs[q], v.colours[q], v.obs
    pl = o["players"][q]
    ink = ink_on(colour)
    flags = []
    if not o["over"] and o["current"] == q:
        flags.append("\u25b6 turn")
    if not o["over"] and o["to_play"] == q:
        flags.append("deciding")
    if o["over"] and o["winner"] == f.id:
        flags.append("\u2605 winner")
    vp = pl["vp"]
    bar = (PANEL_W - 24) * min(vp, VICTORY_POINTS) / VICTORY_POINTS
    svg = (f'<g class="panel-head" data-faction="{_t(f.id)}">'
           f'<rect width="{PANEL_W}" height="50" rx="8" fill="{colour}" stroke="{INK}" '
           f'stroke-width="1.5"/>'
           f'<text x="12" y="21" font-size="16" class="b" fill="{ink}">{_t(f.name)}</text>'
           f'<text x="12" y="40" font-size="12" fill="{ink}">{_t(DOT.join(flags))}</text>'
           f'<text x="{PANEL_W - 12}" y="21" font-size="16" class="b" fill="{ink}" '
           f'text-anchor="end">{vp} VP</text>'
           f'<text x="{PANEL_W - 12}" y="40" font-size="12" fill="{ink}" text-anchor="end">'
           f'hand {pl["hand_size"]}</text>'
           f'<rect x="12" y="45" width="{PANEL_W - 24}" height="3" fill="#ffffff" '
           f'fill-opacity="0.35"/><rect class="vp-bar" x="12" y="45" width="{_n(bar)}" '
           f'height="3" fill="{ink}"/></g>')
    return svg, 54


def _panel_tracks(v: _View, q: int) -> tuple[str, float]:
    """Each track: one space per piece, covered while the piece is off the map."""
    f, colour = v.specs[q], v.colours[q]
    out = []
    y = 4.0
    label_w = 112
    for name, p in f.pieces.items():
        tr = p.track
        if tr is None:
            continue
        spaces = max(p.count, len(tr.vp), len(tr.cost))
        box = min(40.0, (PANEL_W - label_w - 8) / spaces)
        built = v.on_map[name]
        look = v.pieces[name]
        out.append(f'<g class="track" data-piece="{_t(name)}" data-built="{built}">')
        if tr.cost:
            out.append(f'<text x="4" y="{_n(y + 9)}" class="s" fill="#6d6456">cost</text>')
        else:
            y -= 8  # no cost row above the spaces
        out.append(f'<text x="4" y="{_n(y + 27)}" class="b t">{_t(_label(name))}</text>'
                   f'<text x="4" y="{_n(y + 41)}" class="s">{built} on map</text>')
        draws = {t - 1 for t in tr.draw_at}
        for i in range(spaces):
            x = label_w + i * box
            by = y + 14
            if i < len(tr.cost):
                out.append(f'<text class="c s" x="{_n(x + box / 2)}" y="{_n(y + 6)}" '
                           f'fill="#6d6456">{tr.cost[i]}</text>')
            covered = i >= built
            if covered:
                out.append(f'<rect x="{_n(x + 2)}" y="{_n(by)}" width="{_n(box - 4)}" '
                           f'height="30" rx="4" fill="{colour}" stroke="{INK}" '
                           f'stroke-width="1"/><text class="c b t" x="{_n(x + box / 2)}" '
                           f'y="{_n(by + 15)}" fill="{ink_on(colour)}">{_t(look.mark)}</text>')
            else:
                vp = tr.vp[i] if i < len(tr.vp) else None
                out.append(f'<rect x="{_n(x + 2)}" y="{_n(by)}" width="{_n(box - 4)}" '
                           f'height="30" rx="4" fill="#ffffff" stroke="{colour}" '
                           f'stroke-width="2"/>')
                if vp is not None:
                    out.append(f'<text class="c b t" x="{_n(x + box / 2)}" '
                               f'y="{_n(by + 15)}">{vp}</text>')
            if i in draws:  # a card-draw bonus printed on this space
                out.append(f'<rect x="{_n(x + box - 13)}" y="{_n(by - 5)}" width="10" '
                           f'height="13" rx="2" fill="#ffffff" stroke="{INK}" stroke-width="1.2"/>'
                           f'<text class="c b" font-size="10" x="{_n(x + box - 8)}" '
                           f'y="{_n(by + 2)}">+</text>')
        out.append("</g>")
        y += 50
    # Pieces without a track: what is left in the supply, and what left the game.
    chips = []
    for name, p in f.pieces.items():
        if p.track is not None:
            continue
        text = f"{_label(name)} {v.supply[name]}/{p.count}"
        if v.out[name] and p.permanent_removal:
            text += f" ({v.out[name]} gone)"
        chips.append((name, text))
    if chips:
        x = 4.0
        out.append(f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">supply</text>')
        x = 52.0
        for name, text in chips:
            look = v.pieces[name]
            w = 26 + 7.3 * len(text)
            if x + w > PANEL_W:
                x, y = 52.0, y + 22
            out.append(f'<g class="supply" data-piece="{_t(name)}" data-left="{v.supply[name]}">'
                       + _supply_glyph(x + 10, y + 9, look) +
                       f'<text x="{_n(x + 22)}" y="{_n(y + 13)}" class="t">{_t(text)}</text></g>')
            x += w + 6
        y += 24
    return "".join(out), y + 2


def _supply_glyph(x: float, y: float, look: PieceLook) -> str:
    """The piece as drawn on the map, small, with its letters (a legend for the map)."""
    if look.kind == "warrior":
        return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="8" fill="{look.colour}" '
                f'stroke="{INK}" stroke-width="1"/>')
    if look.kind == "building":
        return (f'<rect x="{_n(x - 9)}" y="{_n(y - 9)}" width="18" height="18" rx="2" '
                f'fill="{look.colour}" stroke="{INK}" stroke-width="1"/>'
                f'<text class="c b s" x="{_n(x)}" y="{_n(y)}" fill="{ink_on(look.colour)}">'
                f'{_t(look.mark)}</text>')
    return (f'<rect x="{_n(x - 10)}" y="{_n(y - 8)}" width="20" height="16" rx="8" '
            f'fill="#ffffff" stroke="{look.colour}" stroke-width="2.5"/>'
            f'<text class="c b s" x="{_n(x)}" y="{_n(y)}">{_t(look.mark)}</text>')


def _card(x: float, y: float, w: float, card_id: str, v: _View) -> str:
    name, suit = v.cards.get(card_id, (card_id, ""))
    colour = suit_colour(suit)
    room = max(1, int((w - 14) / 7.3))  # DejaVu Sans, 12 px
    text = name if len(name) <= room else name[:room - 1] + "\u2026"
    return (f'<g class="card" data-card="{_t(card_id)}"><title>{_t(name)} ({_t(suit)})</title>'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="18" rx="3" '
            f'fill="#ffffff" stroke="{colour}" stroke-width="1.5"/>'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="7" height="18" rx="2" fill="{colour}"/>'
            f'<text x="{_n(x + 11)}" y="{_n(y + 13)}" class="s">{_t(text)}</text></g>')


def _card_row(label: str, cards: list[str], y: float, v: _View, cls: str) -> tuple[str, float]:
    """A labelled row of cards, wrapping; returns the svg and the height used."""
    out = [f'<g class="{cls}"><text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">'
           f'{_t(label)}</text>']
    x0, w = 96.0, 128.0
    x, yy = x0, y
    if not cards:
        out.append(f'<text x="{_n(x0)}" y="{_n(y + 13)}" class="s" fill="#9a917f">none</text>')
    for cid in cards:
        if x + w > PANEL_W:
            x, yy = x0, yy + 22
        out.append(_card(x, yy, w, cid, v))
        x += w + 4
    out.append("</g>")
    return "".join(out), yy - y + 24


def _panel_cards(v: _View, q: int) -> tuple[str, float]:
    f, colour, o = v.specs[q], v.colours[q], v.obs
    pl = o["players"][q]
    out = []
    y = 2.0
    if f.roles:
        out.append(f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">role</text>')
        x = 52.0
        retired = v.roles_retired[q]
        for i, r in enumerate(f.roles):
            held = pl["role"] == r.id
            gone = bool(retired >> i & 1)
            w = 20 + 8.6 * len(r.name)
            if x + w > PANEL_W:
                x, y = 52.0, y + 22
            fill = colour if held else "#ffffff"
            ink = ink_on(colour) if held else ("#a39a88" if gone else INK)
            state = "held" if held else "retired" if gone else "available"
            strike = ' text-decoration="line-through"' if gone else ""
            out.append(f'<g class="role" data-role="{_t(r.id)}" data-state="{state}">'
                       f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="19" rx="9" '
                       f'fill="{fill}" stroke="{colour if not gone else "#c9c0ae"}" '
                       f'stroke-width="1.5"/><text class="c t{" b" if held else ""}" '
                       f'x="{_n(x + w / 2)}" y="{_n(y + 10)}" fill="{ink}"'
                       f'{strike}>{_t(r.name)}'
                       f'</text></g>')
            x += w + 5
        y += 26
    for cy in f.cycles:
        # A cycle: its stages in order round the ring, the marker's one filled.
        at = pl["cycles"][cy.id]
        out.append(f'<g class="cycle" data-cycle="{_t(cy.id)}" data-stage="{_t(at)}">'
                   f'<title>{_t(cy.name or _label(cy.id))}</title>'
                   f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">'
                   f'{_t(_label(cy.id))}</text>')
        x = 52.0
        for stage in cy.stages:
            here = stage == at
            w = 20 + 8.6 * len(_label(stage))
            if x + w > PANEL_W:
                x, y = 52.0, y + 22
            mark = ' data-current="1"' if here else ""
            out.append(f'<g class="stage" data-stage="{_t(stage)}"{mark}>'
                       f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="19" rx="3" '
                       f'fill="{colour if here else "#ffffff"}" stroke="{colour}" '
                       f'stroke-width="1.5"/><text class="c t{" b" if here else ""}" '
                       f'x="{_n(x + w / 2)}" y="{_n(y + 10)}" '
                       f'fill="{ink_on(colour) if here else INK}">{_t(_label(stage))}'
                       f'</text></g>')
            x += w + 5
        out.append("</g>")
        y += 26
    if f.columns:
        cols = o["players"][q]["columns"]
        n = len(f.columns)
        cw = (PANEL_W - 4 - 4 * (n - 1)) / n
        deepest = max([len(cols.get(c.id, [])) for c in f.columns] + [1])
        col_h = 24 + 21 * deepest
        for i, c in enumerate(f.columns):
            x = 2 + i * (cw + 4)
            cards = cols.get(c.id, [])
            head = _label(c.id) if c.id == c.action else f"{_label(c.id)} ({c.action})"
            out.append(f'<g class="column" data-column="{_t(c.id)}" data-cards="{len(cards)}">'
                       f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(cw)}" height="{col_h}" rx="5" '
                       f'fill="#ffffff" fill-opacity="0.6" stroke="{colour}" stroke-width="1.5"/>'
                       f'<text class="b s" x="{_n(x + 6)}" y="{_n(y + 15)}">{_t(head)}</text>')
            for k, card_id in enumerate(cards):
                out.append(_card(x + 4, y + 22 + 21 * k, cw - 8, card_id, v))
            out.append("</g>")
        y += col_h + 6
    crafted = [(it, k) for it, k in sorted(pl["crafted"].items()) if k]
    if crafted:
        text = ", ".join(f"{_label(it)}{'' if k == 1 else f' x{k}'}" for it, k in crafted)
        if pl.get("exhausted"):
            text += f" ({pl['exhausted']} exhausted)"
        out.append(f'<g class="crafted"><text x="4" y="{_n(y + 13)}" class="s" '
                   f'fill="#6d6456">crafted</text><text x="96" y="{_n(y + 13)}" class="t">'
                   f'{_t(text)}</text></g>')
        y += 22
    if pl["dominance"]:
        svg, h = _card_row("dominance", [pl["dominance"]], y, v, "dominance")
        out.append(svg)
        y += h
    in_play = list(pl["play_area"])
    if pl["dominance"] in in_play:  # an activated dominance card is shown once, above
        in_play.remove(pl["dominance"])
    if in_play:
        svg, h = _card_row("in play", in_play, y, v, "play-area")
        out.append(svg)
        y += h
    if v.seat == q:
        svg, h = _card_row("hand", sorted(pl["hand"] or []), y, v, "hand")
        out.append(svg)
        y += h
    # Zones (card piles apart from the hand): their cards in the owner's view, else only
    # how many (face down).  Boxes: warriors off the map, public counts.
    for zid, zone in pl["zones"].items():
        if zone["cards"] is not None and v.seat == q:
            svg, h = _card_row(f"{_label(zid)} {zone['size']}", sorted(zone["cards"]), y, v,
                               "zone")
        else:
            svg, h = (f'<g class="zone" data-zone="{_t(zid)}" data-size="{zone["size"]}">'
                      f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">'
                      f'{_t(_label(zid))}</text><text x="96" y="{_n(y + 13)}" class="t">'
                      f'{zone["size"]} face down</text></g>'), 22
        out.append(svg)
        y += h
    for bid, k in pl["boxes"].items():
        out.append(f'<g class="box" data-box="{_t(bid)}" data-count="{k}">'
                   f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">{_t(_label(bid))}'
                   f'</text><text x="96" y="{_n(y + 13)}" class="t">{k} warrior'
                   f'{"" if k == 1 else "s"}</text></g>')
        y += 22
    return "".join(out), y


def _shared(v: _View) -> tuple[str, float]:
    o = v.obs
    out = [f'<rect width="{PANEL_W}" height="26" rx="6" fill="#e9e0c9"/>'
           f'<text x="10" y="18" class="t">deck {o["deck_size"]}{DOT}discard '
           f'{len(o["discard"])}{DOT}out of the game {len(o["removed"])}</text>']
    y = 30.0
    items = [(it, k) for it, k in sorted(o["items"].items())]
    if items:
        text = ", ".join(f"{_label(it)} {k}" for it, k in items)
        out.append(f'<text x="4" y="{_n(y + 13)}" class="s" fill="#6d6456">items</text>'
                   f'<text x="96" y="{_n(y + 13)}" class="s">{_t(text)}</text>')
        y += 22
    if o["available_dominance"]:
        svg, h = _card_row("dominance", sorted(o["available_dominance"]), y, v,
                           "available-dominance")
        out.append(svg)
        y += h
    return f'<g class="shared">{"".join(out)}</g>', y


__all__ = ["Picture", "Part", "colour_distance", "compose", "faction_colour", "halo_on",
           "picture", "render_svg"]
