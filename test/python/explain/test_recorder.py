"""explain.recorder: where a location points a user (issue 18: "the user's Python
file:line"), and the tags that carry reasons through the passes."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.explain import recorder as rec


def test_a_call_stack_names_the_innermost_frame_outside_libraries(ctx):
    with ctx:
        library = ir.Location.file("/env/lib/python3.11/site-packages/flax/linear.py", 298, 10)
        model = ir.Location.file("/home/me/model.py", 56, 16)
        script = ir.Location.file("/home/me/train.py", 12, 4)
        stack = ir.Location.callsite(library, [model, script])
        assert rec.frames(stack) == [
            ("/env/lib/python3.11/site-packages/flax/linear.py", 298, 10),
            ("/home/me/model.py", 56, 16), ("/home/me/train.py", 12, 4)]
        assert rec.where(stack) == "/home/me/model.py:56:16"
        named = ir.Location.name("jit(step)/dot_general", childLoc=stack)
        assert rec.where(named) == "/home/me/model.py:56:16"
        # Only library frames: the innermost one.
        only = ir.Location.callsite(library, [ir.Location.file(
            "/env/lib/python3.11/site-packages/optax/base.py", 3, 1)])
        assert rec.where(only).endswith("flax/linear.py:298:10")
        assert rec.where(ir.Location.unknown()) == "unknown"


def test_tags_wrap_and_unwrap(ctx):
    recorder = rec.Recorder()
    with ctx:
        loc = ir.Location.file("m.mlir", 3, 5)
        tagged = recorder.tag(recorder.tag(loc, {"why": "a"}), {"why": "b"})
        assert rec.tag_ids(tagged) == [1, 0]
        assert [r["why"] for r in recorder.reasons_of(tagged)] == ["b", "a"]
        assert rec.untagged(tagged) == loc
        fused = rec.fused_location([tagged, ir.Location.file("m.mlir", 9, 1)])
        assert rec.tag_ids(fused) == [1, 0]
        assert rec.untagged(fused) == ir.Location.file("m.mlir", 9, 1)  # the last member
