"""Where pictures put a map's clearings: the map's own positions, or a layout from its paths.

A map may give each clearing a ``position`` (x, y in percent of the board, from the top
left).  A homebrew map without them still draws: its clearings are laid out from the
graph of paths and rivers, the first pair of ``opposite_corners`` pinned top-left and
bottom-right, the second top-right and bottom-left (the base maps' corner numbering),
then a stress layout (distances on the board follow distances in the graph).  The
layout uses no randomness and a fixed number of iterations, so a map always draws the
same.
"""

from __future__ import annotations

import math
from collections import deque

from rootlaw.spec.models import MapSpec

Point = tuple[float, float]

# Corners in the order opposite pairs fill them: (top-left, bottom-right), (top-right,
# bottom-left).
_CORNER_SLOTS: tuple[tuple[Point, Point], ...] = (((0.0, 0.0), (100.0, 100.0)),
                                                   ((100.0, 0.0), (0.0, 100.0)))
_ITERATIONS = 400
_SEPARATION = 16.0  # percent: clearings closer than this are pushed apart
_GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))


def clearing_positions(m: MapSpec) -> dict[int, Point]:
    """Clearing id -> (x, y) in percent of the board; given positions are kept as they are."""
    given = {c.id: (float(c.position[0]), float(c.position[1]))
             for c in m.clearings if c.position is not None}
    if len(given) == len(m.clearings):
        return given
    return _stress_layout(m, given)


def _graph_distances(ids: list[int], links: list[tuple[int, int]]) -> list[list[float]]:
    index = {cid: i for i, cid in enumerate(ids)}
    n = len(ids)
    near: list[list[int]] = [[] for _ in range(n)]
    for a, b in links:
        near[index[a]].append(index[b])
        near[index[b]].append(index[a])
    for row in near:
        row.sort()
    dist = [[-1.0] * n for _ in range(n)]
    for s in range(n):
        dist[s][s] = 0.0
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for v in near[u]:
                if dist[s][v] < 0:
                    dist[s][v] = dist[s][u] + 1
                    queue.append(v)
    # Parts of the map out of reach of each other sit one step beyond the farthest pair.
    far = max([d for row in dist for d in row] + [1.0]) + 1
    return [[d if d >= 0 else far for d in row] for row in dist]


def _stress_layout(m: MapSpec, given: dict[int, Point]) -> dict[int, Point]:
    ids = sorted(c.id for c in m.clearings)
    n = len(ids)
    index = {cid: i for i, cid in enumerate(ids)}
    dist = _graph_distances(ids, [*m.paths, *m.rivers])
    pinned: dict[int, Point] = {index[c]: p for c, p in given.items()}
    for (a, b), slots in zip(m.opposite_corners, _CORNER_SLOTS, strict=False):
        for cid, slot in ((a, slots[0]), (b, slots[1])):
            pinned.setdefault(index[cid], slot)

    # One step of the graph is this long on the board: pinned pairs say how long.
    ratios = [math.dist(pinned[i], pinned[j]) / dist[i][j]
              for i in sorted(pinned) for j in sorted(pinned) if i < j]
    unit = sum(ratios) / len(ratios) if ratios else 100.0 / max(max(r) for r in dist)

    pos: list[Point] = [(0.0, 0.0)] * n
    for i in range(n):
        if i in pinned:
            pos[i] = pinned[i]
            continue
        # Start near the pins that are close in the graph, spread by a fixed spiral.
        wx = wy = wsum = 0.0
        for j, p in sorted(pinned.items()):
            w = 1.0 / (dist[i][j] ** 2)
            wx, wy, wsum = wx + w * p[0], wy + w * p[1], wsum + w
        cx, cy = (wx / wsum, wy / wsum) if wsum else (50.0, 50.0)
        r = 4.0 + i
        pos[i] = (cx + r * math.cos(i * _GOLDEN_ANGLE), cy + r * math.sin(i * _GOLDEN_ANGLE))

    free = [i for i in range(n) if i not in pinned]
    for _ in range(_ITERATIONS):
        for i in free:  # stress majorization, one clearing at a time (Gauss-Seidel)
            x = y = wsum = 0.0
            xi, yi = pos[i]
            for j in range(n):
                if j == i:
                    continue
                want = dist[i][j] * unit
                w = 1.0 / (want * want)
                xj, yj = pos[j]
                gap = math.hypot(xi - xj, yi - yj) or 1e-9
                x += w * (xj + want * (xi - xj) / gap)
                y += w * (yj + want * (yi - yj) / gap)
                wsum += w
            pos[i] = (x / wsum, y / wsum)

    if not pinned:  # nothing fixes the frame: fit the layout to the board
        xs, ys = [p[0] for p in pos], [p[1] for p in pos]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        pos = [((p[0] - min(xs)) * 100 / span, (p[1] - min(ys)) * 100 / span) for p in pos]
    pos = _separate(pos, set(pinned))
    return {ids[i]: (round(x, 1), round(y, 1)) for i, (x, y) in enumerate(pos)}


def _separate(pos: list[Point], pinned: set[int]) -> list[Point]:
    """Push clearings apart that would overlap in a picture, and keep them on the board."""
    pos = [(min(100.0, max(0.0, x)), min(100.0, max(0.0, y))) for x, y in pos]
    n = len(pos)
    for _ in range(60):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                (xi, yi), (xj, yj) = pos[i], pos[j]
                gap = math.hypot(xi - xj, yi - yj)
                if gap >= _SEPARATION:
                    continue
                moved = True
                if gap < 1e-6:  # on top of each other: part them along a fixed direction
                    dx, dy, gap = math.cos(i + j), math.sin(i + j), 1e-6
                else:
                    dx, dy = (xi - xj) / gap, (yi - yj) / gap
                push = (_SEPARATION - gap) / 2
                movers = [k for k in (i, j) if k not in pinned]
                if len(movers) == 1:
                    push *= 2
                for k in movers:
                    sign = 1.0 if k == i else -1.0
                    x, y = pos[k]
                    pos[k] = (min(100.0, max(0.0, x + sign * push * dx)),
                              min(100.0, max(0.0, y + sign * push * dy)))
        if not moved:
            break
    return pos
