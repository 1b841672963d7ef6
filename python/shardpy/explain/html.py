"""One self-contained HTML page explaining the collectives of a partitioned program
(`write_page`, issue 18).

The page (one file: inline CSS, inline JavaScript, SVG drawn into the page, no URL to
anything outside it, opens from file://) shows:

  * a header: the title, how many collectives, bytes and estimated time in all, the
    mesh(es);
  * the collectives, most expensive first (estimated seconds, then bytes): kind, mesh
    axes, group size, bytes per device, estimated time, the op that needed it and its
    source location, why;
  * the program's data flow: every op a box, an edge from each producer to each user,
    layered top to bottom (an op's layer is its longest path from the function's
    arguments); each function its own band. The collectives (the sdy.reshard and
    sdy.all_reduce ops the partitioner inserted, or the op their reasons point at) are
    marked on it: an outline and a label (kind, axes, cost) coloured from amber to red
    and thickened by estimated seconds (bytes where some record has no estimate; see
    `_weights`), and the edges into them drawn the same way;
  * a side panel explaining what is selected (a table row, a mark or a box in the flow,
    or `#collective=N` / `#node=N` in the URL; the most expensive collective at first):
    for a collective, why it is there, the op and source location, the layouts before
    and after, the origin chains of both layouts step by step, the alternatives (and
    the op's placements) weighed with their costs, and the members of a combined
    collective; for an op, its results, operands and users. Each value is shown laid out
    on the mesh as jax.debug.visualize_array_sharding does: the tensor cut into blocks
    along each dim by the mesh axes sharding it, each block labelled with the devices
    holding it (rank > 2: the first two sharded dims; unreduced axes: partial sums);
  * the warnings, if the document has any.
The flow zooms (-, fit, +) and finds an op by name or location (the search box).

The page's markup and style are in page.html and its script in page.js, beside this
module; write_page inlines both into each page.

The collectives table and the flow are built in the browser from one embedded JSON blob
(`<script type="application/json" id="shardpy-explain-data">`): {"document": the
document as given (made plain JSON), "view": the flow's layout}. The layout is computed
here in Python (`layout`), not in the page: the page only draws the boxes and edges at
the positions given, so it stays responsive for programs of ~5,000 ops. Bodies of
regions with no collective inside (a reduce's reduction body) are drawn as part of
their op; above MAX_DRAWN boxes, linear chains of ops with no collective (one producer,
one user each) are drawn as one box listing its ops.

Every collective element carries `data-collective="<index into collectives>"` and
`data-kind="<kind>"`: the table's rows and the marks on the flow.

The document (`shardpy explain`'s JSON; explain/collectives.py makes the records,
Recorder.note_program the program):

    {"title": "...",                                    (optional)
     "collectives": [                                   most expensive first
        {"kind": "all_reduce", "axes": ["model"], "group_size": 4, "bytes": 1536.0,
         "seconds": 1.2e-4 | null, "op": "stablehlo.dot_general", "loc": "f.mlir:6:10",
         "why": "operand" | "result" | "lowering" | "program",
         "from_sharding": "<@mesh, ...>", "to_sharding": "<@mesh, ...>",
         "origin": {"from": [step], "to": [step]},
             step: {"how", "op", "loc", "sharding"?, "level"?, "note"?}
         "alternatives": [{"steps": ["all_gather", ...], "bytes", "seconds"}],
         "placements": [{"operands", "results", "bytes", "seconds", "chosen"}], (optional)
         "collective_loc": "...",
         "reasons": [{"id": int, "why", "op", "loc", "from_sharding", "to_sharding",
                      "origin", ...}]}],             several: a combined collective
     "program": {
        "meshes": {"mesh": {"axes": [["data", 2], ["model", 4]],
                            "device_ids": [...]}},   (empty: iota order)
        "nodes": [{"id": int, "op": "stablehlo.add" | "argument" | "block_argument",
                   "loc", "func", "depth": region nesting level,
                   "operands": [value id],
                   "results": [{"id": value id, "shape": [16, 32], "dtype": "f32",
                                "sharding": "<@mesh, ...>" | "", "mesh": "mesh" | "",
                                "dims": [['"data"'], []]  axes sharding each dim
                                        (sub-axes: '"x":(1)2'),
                                "unreduced": ['"model"']}],
                   "reasons": [reason id]}]},      (the ops made for those reasons)
     "warnings": [{"message", "loc", "suggestion", "kind"?, "op"?}]}   (optional)
(Other keys, such as --explain-value's "values", travel in the blob but are not shown.)

A collective is placed on the flow at the sdy.reshard / sdy.all_reduce nodes tagged with
one of its reasons' ids, else at another node tagged with one (the op that needed it),
else at the node with its op and loc.
"""
from __future__ import annotations

import html
import json
import math
import pathlib

from ..sharding.collective_time import COLLECTIVES

# The ops the partitioner inserts for a collective (program nodes are the global
# program), and the collectives a program may already have (manual code).
COLLECTIVE_OPS = frozenset(COLLECTIVES) | {"sdy.reshard"}
ARGUMENTS = ("argument", "block_argument")

BOX_W, BOX_H = 156, 34     # an op's box (px, at zoom 1)
COL_GAP = 24               # between boxes of a layer
ROW_H = 66                 # layer to layer (the gap holds the collective labels)
BAND_HEAD = 30             # a function's band title
BAND_GAP = 36
MARGIN = 16
MAX_DRAWN = 2000           # above: chains of ops with no collective become one box
SWEEPS = 4                 # barycentre sweeps ordering each layer


# -- the layout ----------------------------------------------------------------------
def layout(document: dict) -> dict:
    """Where the page draws each op: {"boxes": [{"n": [node indices], "r": nodes of
    collapsed regions inside, "x", "y", "f": band}], "edges": [[box, box, region edge?]],
    "bands": [{"func", "y", "h"}], "width", "height", "box_w", "box_h",
    "node_box": [box per node index], "collective_nodes": [[node index] per collective],
    "metric": "seconds" | "bytes", "weight": [0..1 per collective], "chains": bool,
    "collective_ops": the op names that are collectives}."""
    program = document.get("program") or {}
    nodes = [n for n in (program.get("nodes") or []) if isinstance(n, dict)]
    collectives = [c for c in (document.get("collectives") or []) if isinstance(c, dict)]
    metric, weight = _weights(collectives)
    where = _link_collectives(collectives, nodes)
    hot = {i for found in where for i in found}
    hot |= {i for i, n in enumerate(nodes) if n.get("op") in COLLECTIVE_OPS}

    # Regions: a node at depth d+1 belongs to the last op at depth d before it (the
    # recorder lists an op, then its regions' blocks). A region with nothing hot in it
    # is drawn as part of its op (`rep`); one with a collective inside is drawn open.
    parent = [-1] * len(nodes)
    stack: list[int] = []
    for i, n in enumerate(nodes):
        d = _int(n.get("depth"))
        del stack[d:]
        if d > 0 and stack:
            parent[i] = stack[-1]
        if n.get("op") not in ARGUMENTS and len(stack) == d:
            stack.append(i)
    expanded: set[int] = set()
    for i in hot:
        p = parent[i]
        while p >= 0 and p not in expanded:
            expanded.add(p)
            p = parent[p]
    rep = list(range(len(nodes)))
    for i in range(len(nodes)):
        p = parent[i]
        if p >= 0:
            rep[i] = rep[p] if rep[p] != p else (i if p in expanded else p)

    # Edges between the drawn nodes: producer -> user, plus (open regions) the op's
    # operands -> its block's arguments and its terminator -> the op (dashed).
    producer: dict = {}
    for i, n in enumerate(nodes):
        for r in n.get("results") or []:
            if isinstance(r, dict) and "id" in r:
                producer.setdefault(r["id"], i)
    edges: dict = {}

    def link(a: int, b: int, region: int) -> None:
        if a != b:
            edges[(a, b)] = min(edges.get((a, b), 1), region)

    for i, n in enumerate(nodes):
        for v in n.get("operands") or []:
            p = producer.get(v)
            if p is not None:
                link(rep[p], rep[i], 0)
    for i, p in enumerate(parent):
        if p >= 0 and p in expanded and rep[i] == i:
            if nodes[i].get("op") == "block_argument":
                for v in nodes[p].get("operands") or []:
                    q = producer.get(v)
                    if q is not None:
                        link(rep[q], i, 1)
            elif not nodes[i].get("results"):  # a terminator: the op's value comes out
                link(i, p, 1)
    drawn = [i for i in range(len(nodes)) if rep[i] == i]
    inside = {}
    for i in range(len(nodes)):
        if rep[i] != i:
            inside[rep[i]] = inside.get(rep[i], 0) + 1

    # Large programs: a chain of ops with no collective is one box.
    group = {i: i for i in drawn}
    chains = len(drawn) > MAX_DRAWN
    if chains:
        preds, succs = _adjacency(drawn, edges)
        for i in _topo(drawn, preds, succs):
            if len(preds[i]) == 1:
                (p,) = preds[i]
                if (len(succs[p]) == 1 and _plain_op(nodes, i, hot, expanded)
                        and _plain_op(nodes, p, hot, expanded)
                        and nodes[i].get("func") == nodes[p].get("func")):
                    group[i] = group[p]
    heads = [i for i in drawn if group[i] == i]
    box_of = {h: k for k, h in enumerate(heads)}
    members: list[list[int]] = [[] for _ in heads]
    for i in drawn:
        members[box_of[group[i]]].append(i)
    box_edges: dict = {}
    for (a, b), region in edges.items():
        ba, bb = box_of[group[a]], box_of[group[b]]
        if ba != bb:
            box_edges[(ba, bb)] = min(box_edges.get((ba, bb), 1), region)

    boxes = list(range(len(heads)))
    preds, succs = _adjacency(boxes, box_edges)
    order = _topo(boxes, preds, succs)
    layer = _layers(order, preds, succs,
                    {b for b in boxes if nodes[heads[b]].get("op") in ARGUMENTS})

    # One band per function, in the order the program lists them.
    funcs: list = []
    for h in heads:
        if nodes[h].get("func", "") not in funcs:
            funcs.append(nodes[h].get("func", ""))
    band_of = [funcs.index(nodes[h].get("func", "")) for h in heads]
    rank = {b: k for k, b in enumerate(order)}
    x = [0.0] * len(boxes)
    y = [0.0] * len(boxes)
    bands = []
    top, width = MARGIN, 0.0
    for f, func in enumerate(funcs):
        mine = [b for b in order if band_of[b] == f]
        depth = max((layer[b] for b in mine), default=0) + 1
        rows: list[list[int]] = [[] for _ in range(depth)]
        for b in mine:
            rows[layer[b]].append(b)
        for b, px in _place(rows, preds, succs, rank).items():
            x[b] = px
            y[b] = top + BAND_HEAD + layer[b] * ROW_H + (ROW_H - BOX_H)
        height = BAND_HEAD + depth * ROW_H + (ROW_H - BOX_H)
        bands.append({"func": func, "y": top, "h": height})
        width = max(width, max((x[b] for b in mine), default=0) + BOX_W)
        top += height + BAND_GAP

    node_box = [-1] * len(nodes)
    for i in range(len(nodes)):
        node_box[i] = box_of[group[rep[i]]]
    return {"boxes": [{"n": members[b], "r": sum(inside.get(i, 0) for i in members[b]),
                       "x": round(x[b], 1), "y": round(y[b], 1), "f": band_of[b]}
                      for b in boxes],
            "edges": [[a, b, region] for (a, b), region in sorted(box_edges.items())],
            "bands": bands, "width": round(width + 2 * MARGIN, 1),
            "height": round(top - BAND_GAP + MARGIN, 1), "box_w": BOX_W, "box_h": BOX_H,
            "node_box": node_box, "collective_nodes": where, "metric": metric,
            "weight": weight, "chains": chains, "collective_ops": sorted(COLLECTIVE_OPS)}


def _int(value) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def _plain_op(nodes, i, hot, expanded) -> bool:
    return i not in hot and i not in expanded and nodes[i].get("op") not in ARGUMENTS


def _weights(collectives: list[dict]) -> tuple[str, list[float]]:
    """Each collective's cost on 0..1: estimated seconds where every record has one
    (bytes otherwise: one scale for all), linear from the cheapest to the dearest, the
    scale spanning at least a factor of 10 (near-equal costs look alike: a collective
    2% dearer than the rest is not drawn as the one to worry about)."""
    timed = bool(collectives) and all(
        isinstance(c.get("seconds"), (int, float)) for c in collectives)
    metric = "seconds" if timed else "bytes"
    costs = []
    for c in collectives:
        v = c.get(metric)
        costs.append(float(v) if isinstance(v, (int, float)) and math.isfinite(v) else 0.0)
    hi = max(costs, default=0.0)
    lo = min(min(costs, default=0.0), hi / 10)
    return metric, [round((v - lo) / (hi - lo), 4) if hi > lo else 0.0 for v in costs]


def _link_collectives(collectives: list[dict], nodes: list[dict]) -> list[list[int]]:
    """Per collective, the program nodes it is drawn at (see the module docstring)."""
    by_reason: dict = {}
    for k, c in enumerate(collectives):
        for r in c.get("reasons") or []:
            if isinstance(r, dict) and isinstance(r.get("id"), int):
                by_reason.setdefault(r["id"], []).append(k)
    made: dict = {}    # collective -> the reshards / all_reduces made for it
    needed: dict = {}  # collective -> other ops tagged with its reasons
    for i, n in enumerate(nodes):
        for rid in n.get("reasons") or []:
            for k in by_reason.get(rid, ()) if isinstance(rid, int) else ():
                into = made if n.get("op") in COLLECTIVE_OPS else needed
                if i not in into.setdefault(k, []):
                    into[k].append(i)
    at: dict = {}
    for i, n in enumerate(nodes):
        at.setdefault((n.get("op"), n.get("loc")), i)
    out = []
    for k, c in enumerate(collectives):
        found = made.get(k) or needed.get(k)
        if not found:
            i = at.get((c.get("op"), c.get("loc")))
            found = [i] if i is not None else []
        out.append(found)
    return out


def _adjacency(vertices, edges) -> tuple[dict, dict]:
    preds = {v: [] for v in vertices}
    succs = {v: [] for v in vertices}
    for a, b in edges:
        succs[a].append(b)
        preds[b].append(a)
    return preds, succs


def _topo(vertices: list, preds: dict, succs: dict) -> list:
    """Kahn's order (ties: the program's order); a cycle's nodes (none in SSA) last."""
    missing = {v: len(preds[v]) for v in vertices}
    ready = [v for v in vertices if not missing[v]]
    ready.reverse()
    order = []
    while ready:
        v = ready.pop()
        order.append(v)
        for s in reversed(succs[v]):
            missing[s] -= 1
            if not missing[s]:
                ready.append(s)
    if len(order) < len(vertices):
        done = set(order)
        order += [v for v in vertices if v not in done]
    return order


def _layers(order: list, preds: dict, succs: dict, arguments: set) -> dict:
    """Longest path from the arguments; what no argument reaches (constants and what is
    computed from them only) sits just above its first user instead of at the top."""
    layer, reached = {}, {}
    for v in order:
        layer[v] = max((layer[p] + 1 for p in preds[v] if p in layer), default=0)
        reached[v] = v in arguments or any(reached.get(p) for p in preds[v])
    for v in reversed(order):
        if not reached[v] and succs[v]:
            layer[v] = max(layer[v], min(layer[s] for s in succs[v]) - 1)
    return layer


def _place(rows: list[list[int]], preds: dict, succs: dict, rank: dict) -> dict:
    """x of each box: each layer ordered by the barycentre of its neighbours (a few
    sweeps down and up), then moved under its producers keeping the order and gaps."""
    pos = {}
    for row in rows:
        for k, b in enumerate(row):
            pos[b] = k
    for sweep in range(SWEEPS):
        down = sweep % 2 == 0
        for row in (rows if down else reversed(rows)):
            near = preds if down else succs

            def key(b):
                ns = [pos[n] for n in near[b] if n in pos]
                return (sum(ns) / len(ns) if ns else pos[b], rank[b])
            row.sort(key=key)
            for k, b in enumerate(row):
                pos[b] = k
    gap = BOX_W + COL_GAP
    x = {b: float(pos[b] * gap) for row in rows for b in row}
    for sweep in range(SWEEPS):
        down = sweep % 2 == 0
        for row in (rows if down else reversed(rows)):
            near = preds if down else succs
            want = []
            for b in row:
                ns = [x[n] for n in near[b] if n in x]
                want.append(sum(ns) / len(ns) if ns else x[b])
            placed = []
            for k, w in enumerate(want):
                placed.append(w if not k else max(w, placed[-1] + gap))
            shift = sum(p - w for p, w in zip(placed, want)) / max(len(row), 1)
            for b, p in zip(row, placed):
                x[b] = p - shift
    left = min(x.values(), default=0.0)
    return {b: v - left + MARGIN for b, v in x.items()}


# -- the page ------------------------------------------------------------------------
def write_page(path: pathlib.Path, document: dict) -> None:
    """Write the page explaining `document` (the schema above) to `path`."""
    document = _plain(document)
    if not isinstance(document, dict):
        document = {}
    data = {"document": document, "view": layout(document)}
    title = document.get("title") or "shardpy: why each collective is here"
    page = (_asset("page.html").replace("@TITLE@", html.escape(str(title)))
            + '<script type="application/json" id="shardpy-explain-data">'
            + embed_json(data) + "</script>\n<script>\n" + _asset("page.js") + "</script>\n"
            + "</body>\n</html>\n")
    pathlib.Path(path).write_text(page, encoding="utf-8")


def embed_json(value) -> str:
    """`value` as JSON safe inside <script>: no '<', '>', '&' or '/' left unescaped
    (so no '</script>' or '<!--' can end the element, and no URL is spelled out), all
    ASCII; JSON.parse and json.loads read it unchanged."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str,
                      allow_nan=False)
    # Outside strings JSON has none of these characters, and json.dumps never puts one
    # inside an escape sequence: each can be replaced by its escape anywhere.
    return (text.replace("&", "\\u0026").replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("/", "\\/"))


def _plain(value):
    """`value` as plain JSON data: tuples as lists, keys as strings, NaN/inf as null,
    anything else as its str (to_json() leaves such values only as strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


# The page's markup and style (page.html) and its script (page.js) live beside this
# module as files of their own, inlined into every page.
_ASSETS = pathlib.Path(__file__).resolve().parent


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")
