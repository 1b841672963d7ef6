"""The explain page (explain/html.py, issue 18): one self-contained file whose script
builds the collectives table and the data flow from the embedded document."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from shardpy.explain import html as page

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
BLOB = re.compile(r'<script type="application/json" id="shardpy-explain-data">(.*?)</script>',
                  re.S)


# -- documents -------------------------------------------------------------------------
def value(vid, shape, dims=None, unreduced=(), mesh="mesh"):
    dims = dims if dims is not None else [[] for _ in shape]
    spec = ", ".join("{" + ", ".join(d) + "}" for d in dims)
    sharding = f"<@{mesh}, [{spec}]>" if mesh else ""
    return {"id": vid, "shape": list(shape), "dtype": "f32", "sharding": sharding,
            "mesh": mesh, "dims": dims, "unreduced": list(unreduced)}


def node(nid, op, operands=(), results=(), reasons=(), loc="", func="main", depth=0):
    return {"id": nid, "op": op, "loc": loc or f"m.mlir:{nid + 1}:3", "func": func,
            "depth": depth, "operands": list(operands), "results": list(results),
            "reasons": list(reasons)}


MESH = {"mesh": {"axes": [["data", 2], ["model", 4]], "device_ids": []}}


def record(kind, axes, group, nbytes, seconds, op, loc, why, reason_ids, **extra):
    reasons = [{"id": r, "why": why, "op": op, "loc": loc, "index": 0,
                "from_sharding": "<@mesh, [{}, {}], unreduced={\"model\"}>",
                "to_sharding": "<@mesh, [{}, {}]>", "origin": {"from": [], "to": []}}
               for r in reason_ids]
    out = {"kind": kind, "axes": axes, "group_size": group, "bytes": nbytes,
           "seconds": seconds, "op": op, "loc": loc, "why": why,
           "from_sharding": reasons[0]["from_sharding"] if reasons else "",
           "to_sharding": reasons[0]["to_sharding"] if reasons else "",
           "origin": {"from": [{"how": "computed", "op": op, "loc": loc,
                                "sharding": "<@mesh, [{\"data\"}, {}], unreduced={\"model\"}>",
                                "note": "the placement chosen for this op"}],
                      "to": [{"how": "propagated", "op": "func.return", "loc": "",
                              "sharding": "<@mesh, [{\"data\", ?}, {?}]>",
                              "level": "the function's result sharding"},
                             {"how": "annotated", "op": "a function result's sharding",
                              "loc": "", "sharding": "<@mesh, [{\"data\"}, {}]>"}]},
           "alternatives": [{"steps": [kind], "bytes": nbytes, "seconds": seconds}],
           "collective_loc": loc, "reasons": reasons}
    out.update(extra)
    return out


def megatron() -> dict:
    """x @ w1 -> relu -> @ w2: the second matmul's partial sums all-reduced over model."""
    d, m = '"data"', '"model"'
    nodes = [
        node(0, "argument", results=[value(0, (16, 32), [[d], []])]),
        node(1, "argument", results=[value(1, (32, 64), [[], [m]])]),
        node(2, "argument", results=[value(2, (64, 32), [[m], []])]),
        node(3, "stablehlo.dot_general", [0, 1], [value(3, (16, 64), [[d], [m]])]),
        node(4, "func.call", [3], [value(4, (16, 64), [[d], [m]])]),
        node(5, "stablehlo.dot_general", [4, 2], [value(5, (16, 32), [[d], []], [m])],
             loc="mlp.mlir:6:10"),
        node(6, "sdy.all_reduce", [5], [value(6, (16, 32), [[d], []])], [0],
             loc="mlp.mlir:6:10"),
        node(7, "func.return", [6]),
        node(8, "argument", results=[value(7, (16, 64), [[d], [m]])], func="relu"),
        node(9, "stablehlo.constant", results=[value(8, (), mesh="")], func="relu"),
        node(10, "stablehlo.broadcast_in_dim", [8], [value(9, (16, 64), [[d], [m]])],
             func="relu"),
        node(11, "stablehlo.maximum", [7, 9], [value(10, (16, 64), [[d], [m]])],
             func="relu"),
        node(12, "func.return", [10], func="relu"),
    ]
    return {"collectives": [record("all_reduce", ["model"], 4, 1536.0, 1.25e-4,
                                   "stablehlo.dot_general", "mlp.mlir:6:10", "result",
                                   [0])],
            "program": {"meshes": MESH, "nodes": nodes}}


def three() -> dict:
    """Three collectives on a mesh with device ids and a sub-axis: an all_gather at a
    reshard, a combined all_reduce (two members, one inside a while body), and a halo
    exchange found through its op's location only; a warning that tries to end the
    script element."""
    x, x1, y = '"x"', '"x":(1)2', '"y"'
    meshes = {"m": {"axes": [["x", 4], ["y", 2]], "device_ids": [7, 6, 5, 4, 3, 2, 1, 0]}}

    def v(vid, shape, dims, unreduced=()):
        return value(vid, shape, dims, unreduced, "m")

    nodes = [
        node(0, "argument", results=[v(0, (8, 8), [[x1], [y]])]),
        node(1, "argument", results=[v(1, (8, 8, 4), [[x], [], [y]])]),
        node(2, "sdy.reshard", [0], [v(2, (8, 8), [[], [y]])], [5], loc="a.py:3:1"),
        node(3, "stablehlo.dot_general", [2, 0], [v(3, (8, 8), [[], []], [y])],
             loc="a.py:4:1"),
        node(4, "sdy.all_reduce", [3], [v(4, (8, 8), [[], []])], [6], loc="a.py:4:1"),
        node(5, "stablehlo.while", [4], [v(5, (8, 8), [[], []])], loc="a.py:5:1"),
        node(6, "block_argument", results=[v(6, (8, 8), [[], []])], depth=1),
        node(7, "stablehlo.multiply", [6, 6], [v(7, (8, 8), [[], []], [y])], depth=1),
        node(8, "sdy.all_reduce", [7], [v(8, (8, 8), [[], []])], [7], loc="a.py:6:1",
             depth=1),
        node(9, "stablehlo.return", [8], depth=1),
        node(10, "stablehlo.reduce", [5, 1], [v(9, (8,), [[]])], loc="a.py:7:1"),
        node(11, "block_argument", results=[value(10, (), mesh="")], depth=1),
        node(12, "block_argument", results=[value(11, (), mesh="")], depth=1),
        node(13, "stablehlo.add", [10, 11], [v(12, (), [])], depth=1),
        node(14, "stablehlo.return", [12], depth=1),
        node(15, "stablehlo.reduce_window", [9], [v(13, (8,), [[x]])], loc="a.py:8:1"),
        node(16, "func.return", [13, 1]),
    ]
    collectives = [
        record("all_reduce", ["y"], 2, 512.0, 3e-5, "stablehlo.dot_general", "a.py:4:1",
               "result", [6, 7]),
        record("all_gather", ["x"], 2, 256.0, 2e-5, "stablehlo.dot_general", "a.py:4:1",
               "operand", [5]),
        record("collective_permute", ["x"], 4, 64.0, None, "stablehlo.reduce_window",
               "a.py:8:1", "lowering", [99]),
    ]
    return {"title": "three <collectives>", "collectives": collectives,
            "program": {"meshes": meshes, "nodes": nodes},
            "warnings": [{"message": "odd </script><script>window.bad=1</script> here",
                          "loc": "a.py:8:1",
                          "suggestion": "see https://example.invalid/x & <!-- this"}]}


@pytest.fixture(scope="module")
def transformer() -> dict:
    """The document the product makes for examples/transformer_block_fwd_bwd_mesh2x4."""
    from shardpy import explain
    from shardpy.explain.report import explain as read_records
    from shardpy.ir import io as irio
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline, PipelineOptions

    ctx = make_context()
    eng = DiagnosticEngine("x")
    with eng.capturing(ctx):
        m = irio.load_module(
            str(ROOT / "examples" / "transformer_block_fwd_bwd_mesh2x4.mlir"), ctx, eng)
        with explain.recording(explain.Recorder(buffer_name="transformer.mlir")) as rec:
            assert Pipeline("shardpy-partition", ctx, PipelineOptions()).run(m, eng)
    records = read_records(m.operation, rec)
    return {"collectives": [r.to_json() for r in records], "program": rec.program}


def write(tmp_path: Path, document: dict, name: str = "page.html") -> tuple[Path, str]:
    path = tmp_path / name
    page.write_page(path, document)
    return path, path.read_text(encoding="utf-8")


def blob(text: str) -> dict:
    found = BLOB.findall(text)
    assert len(found) == 1
    return json.loads(found[0])


def check_self_contained(text: str) -> None:
    assert text.startswith("<!DOCTYPE html>") and text.count("<html") == 1
    assert text.rstrip().endswith("</html>")
    for outside in ("http://", "https://", "src=", "<link", "@import", "url(", "fetch("):
        assert outside not in text, outside
    # The blob is the only script data; nothing in it can close the element early.
    assert text.count("</script>") == 2


# -- unit tests --------------------------------------------------------------------------
@pytest.mark.parametrize("make", [megatron, three])
def test_page_is_one_self_contained_file(tmp_path, make):
    document = make()
    _, text = write(tmp_path, document)
    check_self_contained(text)
    data = blob(text)
    assert data["document"] == document  # the blob parses back to the document
    for c in document["collectives"]:
        assert f'"kind":"{c["kind"]}"' in BLOB.findall(text)[0]
    view = data["view"]
    assert len(view["node_box"]) == len(document["program"]["nodes"])
    assert len(view["collective_nodes"]) == len(document["collectives"])


def test_real_document(tmp_path, transformer):
    assert len(transformer["collectives"]) >= 3
    _, text = write(tmp_path, transformer)
    check_self_contained(text)
    data = blob(text)
    plain = json.loads(json.dumps(transformer, default=str))
    assert data["document"] == plain
    kinds = {c["kind"] for c in transformer["collectives"]}
    assert "all_reduce" in kinds
    for kind in kinds:
        assert kind in text
    # Every collective is drawn at a node of the program: a reshard or all_reduce.
    nodes = transformer["program"]["nodes"]
    for found in data["view"]["collective_nodes"]:
        assert found and any(nodes[i]["op"] in page.COLLECTIVE_OPS for i in found)


def test_collectives_are_linked_by_reason_then_location():
    document = three()
    view = page.layout(document)
    ops = [n["op"] for n in document["program"]["nodes"]]
    combined, gather, halo = view["collective_nodes"]
    assert combined == [4, 8] and [ops[i] for i in combined] == ["sdy.all_reduce"] * 2
    assert gather == [2]            # the sdy.reshard tagged with its reason
    assert halo == [15]             # no tagged node: the op at its location
    # One record has no estimate: all are scaled by bytes.
    assert view["metric"] == "bytes" and view["weight"] == [1.0, 0.4444, 0.0278]
    assert page.layout(megatron())["metric"] == "seconds"
    # The scale spans at least a factor of 10: near-equal costs look alike.
    assert page._weights([{"seconds": 1.0}, {"seconds": 0.98}])[1] == [1.0, 0.9778]
    assert page._weights([{"seconds": 1.0}]) == ("seconds", [1.0])
    assert page._weights([{"bytes": 0.0, "seconds": None}]) == ("bytes", [0.0])


def test_layers_follow_the_longest_path():
    document = megatron()
    view = page.layout(document)
    y = [view["boxes"][b]["y"] for b in view["node_box"]]
    assert y[0] == y[1] == y[2]                 # the arguments on top
    assert y[0] < y[3] < y[4] < y[5] < y[6] < y[7]
    assert [band["func"] for band in view["bands"]] == ["main", "relu"]
    assert y[8] > y[7]                          # relu's band below main's
    # The constant sits just above its user, not at the top of its band.
    assert y[9] == y[10] - page.ROW_H
    for a, b, _ in view["edges"]:               # edges go down
        assert view["boxes"][a]["y"] < view["boxes"][b]["y"]
    # Boxes of a layer never overlap.
    rows: dict = {}
    for box in view["boxes"]:
        rows.setdefault(box["y"], []).append(box["x"])
    for xs in rows.values():
        xs.sort()
        assert all(b - a >= page.BOX_W for a, b in zip(xs, xs[1:]))


def test_regions_without_collectives_are_drawn_with_their_op():
    document = three()
    view = page.layout(document)
    box = view["node_box"]
    # The reduce's body (nodes 11-14) is part of the reduce's box ...
    assert {box[i] for i in (10, 11, 12, 13, 14)} == {box[10]}
    assert view["boxes"][box[10]]["r"] == 4
    # ... the while's body holds an all_reduce: open, its nodes their own boxes, the
    # while fed from its terminator (a dashed edge) and below it.
    assert len({box[i] for i in (5, 6, 7, 8, 9)}) == 5
    edges = {(a, b): region for a, b, region in view["edges"]}
    assert edges[(box[9], box[5])] == 1 and edges[(box[4], box[6])] == 1
    y = lambda i: view["boxes"][box[i]]["y"]  # noqa: E731
    assert y(4) < y(6) < y(7) < y(8) < y(9) < y(5) < y(10)


def large(n_chains: int = 50, length: int = 100) -> dict:
    """n_chains chains of `length` elementwise ops from one argument, each ending in an
    all_reduce: 5,000+ nodes."""
    nodes = [node(0, "argument", results=[value(0, (64, 64), [['"data"'], []])])]
    collectives = []
    vid = 1
    for c in range(n_chains):
        prev = 0
        for k in range(length):
            nodes.append(node(len(nodes), "stablehlo.tanh", [prev],
                              [value(vid, (64, 64), [['"data"'], []])]))
            prev, vid = vid, vid + 1
        nodes.append(node(len(nodes), "sdy.all_reduce", [prev],
                          [value(vid, (64, 64), [['"data"'], []])], [c]))
        collectives.append(record("all_reduce", ["model"], 4, 1024.0 * (c + 1), 1e-5 * (c + 1),
                                  "stablehlo.tanh", f"m.mlir:{len(nodes)}:3", "result", [c]))
        prev, vid = vid, vid + 1
    nodes.append(node(len(nodes), "func.return", list(range(vid - 1, 0, -(length + 1)))))
    collectives.reverse()
    return {"collectives": collectives, "program": {"meshes": MESH, "nodes": nodes}}


def test_large_programs_draw_chains_as_one_box(tmp_path):
    document = large()
    nodes = document["program"]["nodes"]
    assert len(nodes) > 5000
    view = page.layout(document)
    assert view["chains"]
    assert len(view["boxes"]) < 200
    for found in view["collective_nodes"]:     # collectives keep boxes of their own
        (i,) = found
        assert view["boxes"][view["node_box"][i]]["n"] == [i]
    _, text = write(tmp_path, document)
    check_self_contained(text)
    assert len(text) < 5_000_000


def test_embedded_json_is_safe_in_a_script_element():
    nasty = {"s": "</script><!-- <script> & \u2028 \u2029 \\/ 'q' \"d\" https://x",
             "n": [1, 2.5, None, True]}
    text = page.embed_json(nasty)
    for bad in ("<", ">", "&", "//", "\u2028", "\u2029"):
        assert bad not in text
    assert json.loads(text) == nasty


def test_values_are_made_plain_json(tmp_path):
    document = megatron()
    document["collectives"][0]["seconds"] = float("nan")
    document["collectives"][0]["axes"] = ("model",)
    document["collectives"][0]["extra"] = object()
    _, text = write(tmp_path, document)
    c = blob(text)["document"]["collectives"][0]
    assert c["seconds"] is None and c["axes"] == ["model"]
    assert isinstance(c["extra"], str)


def test_a_document_without_program_or_collectives(tmp_path):
    for document in ({"collectives": []}, {"collectives": megatron()["collectives"]}, {}):
        _, text = write(tmp_path, document)
        check_self_contained(text)
        assert blob(text)["view"]["boxes"] == []


# -- in a browser ----------------------------------------------------------------------
class Dom(HTMLParser):
    """The elements with data-collective in the dumped DOM: where they are (the table's
    body or the flow) and their text."""

    def __init__(self):
        super().__init__()
        self.stack: list[dict] = []
        self.found: list[dict] = []
        self.ids: dict = {}
        self.cells: list[str] = []  # the mesh grids' cells: their devices

    VOID = ("meta", "br", "input", "img", "hr", "link", "col", "wbr")

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        element = {"tag": tag, "attrs": attrs, "text": [],
                   "inside": [e["attrs"]["id"] for e in self.stack if "id" in e["attrs"]]}
        if "id" in attrs:
            self.ids[attrs["id"]] = element
        if "data-collective" in attrs:
            self.found.append(element)
        if "data-devices" in attrs:
            self.cells.append(attrs["data-devices"])
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k]["tag"] == tag:
                del self.stack[k:]
                break

    def handle_data(self, data):
        for element in self.stack:
            element["text"].append(data)

    def text(self, element) -> str:
        return "".join(element["text"])


def dump_dom(tmp_path: Path, url: str) -> str:
    """The DOM Chromium has once the page's script ran (always ends: killed at 60 s)."""
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-dev-shm-usage", "--no-first-run",
               f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=5000",
               "--dump-dom", url]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the browser and its helpers: our group
        proc.communicate()
        pytest.fail("chromium --dump-dom did not finish in 60 s")
    assert proc.returncode == 0, proc.returncode
    return out.decode("utf-8")


browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")


@browser
def test_the_script_builds_the_table_and_the_flow(tmp_path, transformer):
    path, _ = write(tmp_path, transformer)
    dom = Dom()
    dom.feed(dump_dom(tmp_path, path.as_uri()))
    assert dom.ids["shardpy-explain-data"]  # (the blob is still there)
    records = transformer["collectives"]
    rows = [e for e in dom.found if e["tag"] == "tr" and "collective-rows" in e["inside"]]
    assert len(rows) == len(records)
    assert sorted(int(r["attrs"]["data-collective"]) for r in rows) == list(range(len(records)))
    first = rows[0]
    assert first["attrs"]["data-collective"] == "0"
    assert first["attrs"]["data-kind"] == records[0]["kind"] == "all_reduce"
    text = dom.text(first)
    assert "all_reduce" in text and records[0]["op"] in text
    assert records[0]["loc"][-30:] in text  # (a long path is cut on the left)
    marks = [e for e in dom.found if e["tag"] == "g" and "flow" in e["inside"]]
    assert {int(m["attrs"]["data-collective"]) for m in marks} == set(range(len(records)))
    for m in marks:
        assert m["attrs"]["data-kind"] == records[int(m["attrs"]["data-collective"])]["kind"]
    # The most expensive collective is explained in the side panel from the start.
    panel = dom.text(dom.ids["panel-body"])
    assert "why: " + records[0]["why"] in panel and records[0]["loc"] in panel
    assert "partial sum" in panel and "Where the" in panel


@browser
def test_the_panel_explains_a_combined_collective(tmp_path):
    document = three()
    path, _ = write(tmp_path, document)
    dom = Dom()
    dom.feed(dump_dom(tmp_path, path.as_uri() + "#collective=0"))
    panel = dom.text(dom.ids["panel-body"])
    assert "Combines 2 collectives" in panel and "why: result" in panel
    # The before/after grids: the all_reduce's operand, unreduced over y.
    assert "Unreduced over {y}" in panel
    rows = [e for e in dom.found if e["tag"] == "tr" and "collective-rows" in e["inside"]]
    assert [r["attrs"]["data-kind"] for r in rows] == [
        "all_reduce", "all_gather", "collective_permute"]
    warnings = dom.text(dom.ids["warnings"])
    assert "</script><script>window.bad=1</script>" in warnings
    assert "https://example.invalid/x" in warnings


@browser
def test_the_mesh_grid_of_a_value(tmp_path):
    """Value 0 of `three`: dims [{"x":(1)2}, {"y"}] on mesh x=4 × y=2 listed 7..0: rows
    split by the major half of x, columns by y."""
    path, _ = write(tmp_path, three())
    dom = Dom()
    dom.feed(dump_dom(tmp_path, path.as_uri() + "#node=0"))
    # Device L has mesh coords (L // 2, L % 2) and id 7 - L: row x // 2, column y.
    assert dom.cells == ["5,7", "4,6", "1,3", "0,2"]
    assert "argument" in dom.text(dom.ids["panel-body"])
