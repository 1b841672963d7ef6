"""shardpy-run: run a module on its mesh through jaxlib's PjRt client.

    shardpy-run model.mlir --check              # partition, run on the mesh, compare with
                                                # the unpartitioned program on one device
    shardpy-run model.mlir --reference --stats  # the global program only, plus IR statistics
    shardpy-run per_device.mlir --per-device --inputs in.npz --expected out.npz

Global modules go through the shardpy pipeline (--pass-pipeline, default
shardpy-partition) to a per-device module, which runs on N devices (N from the
meshes); modules marked `shardpy.per_device` (or --per-device) run as they are.
On CPU, N host devices are created automatically (--devices to choose more).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import numpy as np

from shardpy.runtime import arrays
from shardpy.ir import callbacks, io as irio
from shardpy.cli import run_tool
from shardpy.ir.diagnostics import DiagnosticEngine, ShardpyError, warning
from shardpy.ir.jaxlib_bridge import (MAX_HOST_DEVICES, held_bytes, make_context,
                                      request_host_devices)
from shardpy.pipeline import PIPELINES, Pipeline, PipelineOptions
from shardpy.explain import report as explain_report
from shardpy.runtime import distributed
from shardpy.runtime.distributed import DEFAULT_TIMEOUT_S, launch

DEFAULT_PIPELINE = "shardpy-partition"
AGAINST_XLA_RUNS = 20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="shardpy-run", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", help="module to run (.mlir text or bytecode, HLO text; '-' for stdin)")
    p.add_argument("--inputs", type=Path, help=".npz with arrays arg0, arg1, ... (global shapes)")
    p.add_argument("--seed", type=int, default=0, help="seed for random inputs (default 0)")
    p.add_argument("--reference", action="store_true",
                   help="run only the global program, unpartitioned, on one device")
    p.add_argument("--check", action="store_true",
                   help="run partitioned and reference, compare; exit 1 on mismatch")
    p.add_argument("--expected", type=Path,
                   help=".npz with out0, out1, ...: compare the outputs against these")
    p.add_argument("--per-device", action="store_true",
                   help="the input is already a per-device module: run it as it is")
    p.add_argument("--pass-pipeline", help=f"pipeline to partition with (default {DEFAULT_PIPELINE})")
    p.add_argument("--rtol", type=float,
                   help="relative tolerance (floats; default per dtype: 1e-4, bf16 0.0625, "
                        "f16 0.0078)")
    p.add_argument("--atol", type=float,
                   help="absolute tolerance (floats; default per dtype: 1e-5, bf16 0.0078, "
                        "f16 0.00098)")
    p.add_argument("--output", type=Path, help="write outputs to this .npz (out0, out1, ...)")
    p.add_argument("--benchmark", type=int, default=0, metavar="N",
                   help="time N runs after a warm-up; report the median")
    p.add_argument("--against-xla", action="store_true",
                   help="also partition the module with XLA's own partitioner (Shardy, the "
                        "same argument and result shardings) and print both side by side: "
                        "outputs against one device, collectives after XLA's "
                        "optimizations, peak memory, step time (implies --check; "
                        "--benchmark N runs, default 20, the two alternating)")
    p.add_argument("--report", type=Path, help="write a JSON report (passes, collectives, times)")
    p.add_argument("--stats", action="store_true", help="print IR statistics of the modules")
    p.add_argument("--platform", default="cpu", choices=["cpu", "gpu", "tpu"])
    p.add_argument("--devices", type=int,
                   help="number of CPU host devices (default: what the mesh needs)")
    p.add_argument("--no-verify-each", action="store_true")
    explain_report.add_arguments(p)
    many = p.add_argument_group(
        "many processes (JAX's distributed runtime; README: Many processes)")
    many.add_argument("--num-processes", type=int, metavar="N",
                      help="alone: launch N local processes and run on all of them; with "
                           "--coordinator and --process-id: the cluster's size")
    many.add_argument("--coordinator", metavar="HOST:PORT",
                      help="join the cluster whose coordinator (process 0) listens there; "
                           "'auto': the cluster jax detects from the environment")
    many.add_argument("--process-id", type=int, metavar="I", help="this process's index")
    many.add_argument("--check-against", choices=["xla", "one-device"],
                      help="what --check compares with: 'xla', XLA's own partitioner run "
                           "on the same devices with the same argument and result layouts, "
                           "each process comparing its devices' blocks (the default across "
                           "processes: no process holds a whole sharded array); "
                           "'one-device', the unpartitioned program on one device, from "
                           "whole inputs (the default in one process; across processes "
                           "each one runs it)")
    many.add_argument("--cluster-timeout", type=int, default=DEFAULT_TIMEOUT_S, metavar="S",
                      help="seconds to wait for the cluster to form, and for a process "
                           f"that stopped answering (default {DEFAULT_TIMEOUT_S})")
    return p


def _print_outputs(outputs) -> None:
    for i, out in enumerate(outputs):
        summary = ""
        if out.size and out.dtype.kind in "fiub":
            import numpy as np

            as_float = out.astype("float64")
            with np.errstate(invalid="ignore"):  # inf - inf in a sum is NaN, said so
                summary = (f" sum={as_float.sum():.6g} min={as_float.min():.6g} "
                           f"max={as_float.max():.6g}")
        print(f"out{i}: {out.dtype}{list(out.shape)}{summary}")


def _print_boundary(module) -> None:
    """Meshes and @main's argument/result types with their shardings."""
    from shardpy.runtime import executor as runtime
    from shardpy.sharding.sdy_codec import module_meshes

    for name, mesh in module_meshes(module).items():
        print(f"mesh @{name} = {mesh}")
    sig = runtime.signature(module)
    for value in sig.args + sig.results:
        print(f"{value.name}: {value.type} {value.sharding or '(no sharding)'}")


def main_body(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if (args.coordinator is not None or (args.num_processes or 1) > 1) and (
            args.reference or args.against_xla):
        raise ShardpyError(
            f"{'--reference' if args.reference else '--against-xla'} runs in one process; "
            f"with several, --check compares with XLA's partitioner run across them")
    if args.num_processes is not None and args.coordinator is None:
        if args.process_id is not None:
            raise ShardpyError("--process-id joins a cluster: give --coordinator too")
        if args.num_processes > 1:
            return launch(_without_launch_options(argv), args.num_processes,
                          args.cluster_timeout)
    if args.coordinator is not None and args.coordinator != "auto" and (
            args.process_id is None or args.num_processes is None):
        raise ShardpyError("--coordinator HOST:PORT needs --process-id and --num-processes")
    if args.reference and (args.check or args.against_xla):
        raise ShardpyError("--reference and --check exclude each other (--check runs both)")
    if args.against_xla:
        args.check = True
        args.benchmark = args.benchmark or AGAINST_XLA_RUNS
    context = make_context()
    engine = DiagnosticEngine(irio.display_name(args.input))
    try:
        return _run(args, context, engine)
    except ShardpyError as err:  # located in the input: render against its name
        if err.location is None:
            raise  # run_tool prints it as "shardpy-run: error: ..."
        engine.add_error(err)
        engine.flush()
        return 1


def _run(args, context, engine: DiagnosticEngine) -> int:
    report: dict = {"input": args.input, "platform": args.platform}

    from shardpy.runtime import executor as runtime
    from shardpy.runtime import stats

    with engine.capturing(context):
        module = irio.load_module(args.input, context, engine)
        if module is None:
            engine.flush()
            return 1
        op = module.operation
        found = callbacks.find(op)
        if found:  # (before anything is made: the error points into the file)
            raise ShardpyError(callbacks.NOT_RUNNABLE, found[0].location)
        found = callbacks.find(op, {callbacks.CUSTOM_PARTITIONING})
        if found:
            raise ShardpyError(callbacks.NOT_PARTITIONED, found[0].location)
        per_device = args.per_device or runtime.is_per_device(op)
        if per_device and args.against_xla:
            raise ShardpyError("--against-xla partitions a global module both ways; this "
                               "one is already per-device")
        if per_device and (args.reference or args.check) and not args.expected:
            raise ShardpyError("a per-device module has no global program to run as the "
                               "reference; compare with --expected OUT.npz instead")
        if args.stats:
            print("== global module" if not per_device else "== per-device module")
            _print_boundary(op)
            print(stats.module_stats(op).summary())

        # Global types and inputs come from the module as given.
        input_shapes = None
        if per_device and args.inputs:  # uneven global shapes are only known from the inputs
            input_shapes = arrays.npz_shapes(args.inputs, len(runtime.signature(op).args))
        global_sig = (runtime.global_signature_of_per_device(op, input_shapes) if per_device
                      else runtime.signature(op))
        arg_types = [v.type for v in global_sig.args]
        for value in global_sig.args + global_sig.results:  # before any is made
            arrays.check_host_memory(value.name, value.type)
        # (One of several processes: inputs mapped from the file, or random ones drawn
        # as the run places them: each process reads or keeps only its devices'
        # blocks, for its shards of the partitioned run and of the reference.)
        many = args.coordinator is not None
        against = args.check_against or ("xla" if many else "one-device")
        by_xla = args.check and against == "xla" and not per_device
        whole = not many or (args.check and not by_xla)
        inputs = (arrays.load_inputs(args.inputs, arg_types, lazy=many) if args.inputs
                  else arrays.random_inputs(arg_types, args.seed) if whole
                  else arrays.RandomInputs(tuple(arg_types), args.seed))
        reference_module = None if per_device else op.clone()
        given_module = None if per_device else op.clone()  # (as read: for _manual_origins)
        xla_module = op.clone() if args.against_xla else None

        run_partitioned = not args.reference
        explained = None
        if explain_report.wanted(args) and (per_device or not run_partitioned):
            raise ShardpyError("--explain explains a partitioning: it needs a global "
                               "module and the partitioned run (not --reference)")
        if run_partitioned and not per_device:
            text = args.pass_pipeline if args.pass_pipeline is not None else DEFAULT_PIPELINE
            if args.pass_pipeline is None and DEFAULT_PIPELINE not in PIPELINES:
                raise ShardpyError(
                    f"the default pipeline '{DEFAULT_PIPELINE}' is not available yet; run "
                    f"with --reference, give --pass-pipeline, or pass a per-device module")
            pipeline = Pipeline(text, context, PipelineOptions(
                verify_each=not args.no_verify_each, record_steps=True))
            with explain_report.explaining(explain_report.wanted(args),
                                            irio.display_name(args.input)) as recorder:
                ok = pipeline.run(module, engine)
            if ok and recorder is not None:
                explained = explain_report.explain(op, recorder, args.platform)
            report["pipeline"] = pipeline.text
            report["passes"] = [{"name": s.name, "seconds": s.seconds} for s in pipeline.steps]
            if not ok:
                engine.flush()
                return 1
            if args.stats:
                print("== per-device module")
                print(stats.module_stats(op).summary())
        engine.flush()
        if explained is not None:
            explain_report.emit(explained, recorder, args, sys.stdout)
            report["explain"] = [r.to_json() for r in explained]

        num_devices = 1
        if run_partitioned:
            num_devices = runtime.device_count(op, runtime.signature(op))
            report["per_device_module"] = stats.module_stats(op).to_json()
        elif reference_module is not None:
            num_devices = _reference_devices(context, reference_module)
        if args.coordinator is not None:
            distributed.join(distributed.Cluster(
                None if args.coordinator == "auto" else args.coordinator,
                args.num_processes, args.process_id, args.cluster_timeout),
                num_devices, args.platform)
        elif args.platform == "cpu":
            _check_host_devices(num_devices, args.devices)
            request_host_devices(max(num_devices, args.devices or 0))
        executor = runtime.Executor(args.platform)
        report["devices"] = num_devices

        results = {}
        against = None
        if args.against_xla:
            against = _against_xla(executor, op, xla_module, global_sig, inputs, num_devices,
                                   args.benchmark)
            results["partitioned"] = against["shardpy"]["result"]
        elif run_partitioned:
            results["partitioned"] = executor.run_per_device(op, global_sig, inputs, args.benchmark)
        if by_xla:
            results["reference"] = _run_reference_by_xla(
                executor, context, reference_module, op, inputs, num_devices, report)
        elif args.reference or args.check:
            results["reference"] = _run_reference(executor, context, reference_module, inputs,
                                                  args.benchmark, report, num_devices)
        engine.flush()

    main_result = results.get("partitioned") or results["reference"]
    covered = main_result.covered
    if covered is None:
        _print_outputs(main_result.outputs)
    else:  # one process of several: its devices' parts
        for i, (out, mask) in enumerate(zip(main_result.outputs, covered)):
            print(f"out{i}: {out.dtype}{list(out.shape)} (process "
                  f"{distributed.process_index()} holds {int(mask.sum())} of {mask.size} "
                  f"elements)")
    report["run"] = {}
    for name, result in results.items():
        entry = {"compile_seconds": result.compile_seconds}
        if result.run_seconds:
            entry["median_seconds"] = statistics.median(result.run_seconds)
            entry["runs"] = len(result.run_seconds)
            print(f"{name}: median {entry['median_seconds'] * 1e3:.3f} ms over "
                  f"{entry['runs']} runs")
        report["run"][name] = entry

    failed = False
    expected = None
    if args.check:
        expected = results["reference"].outputs
    if args.expected:
        expected = _load_expected(args.expected, len(main_result.outputs), lazy=many)
    if expected is not None:
        if covered is None:
            comparisons = [arrays.compare(f"out{i}", a, e, args.rtol, args.atol)
                           for i, (a, e) in enumerate(zip(main_result.outputs, expected))]
        else:  # the other processes' parts: judged there
            reference = results.get("reference") if args.check else None
            comparisons = _compare_parts(main_result, expected,
                                         reference.covered if reference else None, args)
        divergences = main_result.replica_divergence
        if covered is not None:  # every process gives the verdict of all
            comparisons, divergences = _agree(comparisons, divergences)
        for i, divergence in enumerate(divergences):
            out = main_result.outputs[i]
            limit = args.atol if args.atol is not None else arrays.default_tolerances(
                out.dtype)[1]
            if divergence <= limit:
                continue
            # The program's own manual code may return different data on devices it
            # declares to hold one value (XLA then keeps one device's, as shardpy does):
            # a warning naming that code. Any other divergence is shardpy's: an error.
            manual = []
            if given_module is not None:
                with engine.capturing(context):
                    for loc in _manual_origins(given_module, i):
                        warning(loc, f"out{i}: devices disagree by {divergence:.3g} on a "
                                     f"value this manual code declares replicated: it "
                                     f"returns different data per device (the first "
                                     f"device's is kept, as XLA keeps it)")
                        manual.append(loc)
                engine.flush()
            if manual:
                continue
            comparisons.append(arrays.Comparison(
                f"out{i} replicas", divergence, False,
                "devices holding the same shard disagree"))
        for c in comparisons:
            print(c.line())
        failed = not all(c.ok for c in comparisons)
        print("check: FAIL" if failed else "check: PASS")
        if failed and by_xla:
            print("note: the reference is XLA's partitioner, which has bugs of its own; "
                  "--check-against one-device compares with the unpartitioned program")
        report["check"] = [{"name": c.name, "max_abs_error": c.max_abs_error, "ok": c.ok}
                           for c in comparisons]
    if against is not None:
        report["against_xla"] = _print_against_xla(against, expected, args)
    if args.output:  # (across processes: assembled on process 0 only)
        outputs = main_result.outputs
        if covered is not None:
            outputs = distributed.gather_to_first(main_result, num_devices)
        if distributed.process_index() == 0:
            arrays.save_outputs(args.output, outputs)
    if args.report:
        args.report.write_text(json.dumps(report, indent=2, default=float) + "\n")
    return 1 if failed else 0


def _compare_parts(result, expected, expected_covered, args) -> list:
    """One process's comparisons of the output elements its devices hold (`result.covered`)
    with `expected` there (whole arrays, possibly mapped from a file, or the reference
    run's parts, `expected_covered`, which hold at least those elements: the same
    layouts). Relative tolerances scale with the largest magnitude of the whole expected
    output, agreed over the processes, as one process would scale them."""
    picked = []
    for i, (a, e, m) in enumerate(zip(result.outputs, expected, result.covered)):
        if expected_covered is not None and not np.all(expected_covered[i][m]):
            raise ShardpyError(f"out{i}: the reference's devices on this process do not hold "
                               f"the elements the partitioned run's do (layouts differ)")
        picked.append((np.asarray(a[m]), np.asarray(e[m])))
    scales = distributed.agree([arrays.magnitude(e) for _, e in picked])
    return [arrays.compare(f"out{i}", a, e, args.rtol, args.atol, scale=scale)
            for i, ((a, e), scale) in enumerate(zip(picked, scales))]


def _agree(comparisons, divergences):
    """The comparisons and replica divergences of all processes (each judged its own
    devices' parts): the largest error of each output, ok where every process says so."""
    agreed = distributed.agree([c.max_abs_error for c in comparisons]
                               + [0.0 if c.ok else 1.0 for c in comparisons]
                               + list(divergences))
    n = len(comparisons)
    merged = [arrays.Comparison(c.name, agreed[i], agreed[n + i] == 0.0,
                                c.detail if not c.ok else "")
              for i, c in enumerate(comparisons)]
    return merged, agreed[2 * n:]


def _without_launch_options(argv: list[str]) -> list[str]:
    """`argv` without --num-processes (the launched processes get their own)."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--num-processes":
            skip = True
        elif not arg.startswith("--num-processes="):
            out.append(arg)
    return out


def _against_xla(executor, op, xla_module, global_sig, inputs, num_devices, runs) -> dict:
    """shardpy's per-device program and XLA's partitioning of the same global module,
    each run once (outputs) and timed `runs` times, the two alternating call by call
    (after a warm-up of each), with their collectives and memory after XLA's passes."""
    from shardpy.runtime import hlo_collectives

    programs = {"shardpy": executor.compile_per_device(op, global_sig, inputs),
                "XLA": executor.compile_partitioned_by_xla(xla_module.operation, global_sig,
                                                           inputs, num_devices)}
    sides = {}
    for name, program in programs.items():
        found = hlo_collectives.read_collectives(
            program.hlo_instructions(hlo_collectives.OPCODES), num_devices)
        sides[name] = {"result": program.run(), "collectives": found,
                       "memory": program.memory(), "times": [],
                       "compile_seconds": program.compile_seconds}
        program.run_once()  # warm-up
    for i in range(runs):
        order = list(programs) if i % 2 == 0 else list(programs)[::-1]
        for name in order:
            sides[name]["times"].append(programs[name].run_once())
    return sides


def _print_against_xla(sides: dict, expected, args) -> dict:
    """The side-by-side table; returns its numbers for --report."""
    print("== against XLA's partitioner (Shardy; the same module, argument and result "
          "shardings, devices)")
    rows, report = [], {}
    for name, side in sides.items():
        result = side["result"]
        checks = [arrays.compare(f"out{i}", a, e, args.rtol, args.atol)
                  for i, (a, e) in enumerate(zip(result.outputs, expected))]
        worst = max((c.max_abs_error for c in checks), default=0.0)
        median = statistics.median(side["times"]) if side["times"] else None
        memory = side["memory"]
        peak = held_bytes(memory)
        rows.append((name, ("match" if all(c.ok for c in checks) else "MISMATCH")
                     + f" (max abs error {worst:.3g})", side["collectives"].summary(),
                     arrays.format_bytes(peak),
                     "–" if median is None else f"{median * 1e3:.3f} ms"))
        report[name] = {"outputs_match": all(c.ok for c in checks), "max_abs_error": worst,
                        "collectives": side["collectives"].by_kind(),
                        "collective_bytes_per_device": side["collectives"].total_bytes,
                        "memory": memory, "peak_bytes": peak, "median_seconds": median,
                        "runs": len(side["times"]),
                        "compile_seconds": side["compile_seconds"]}
    labels = ("", "outputs vs 1 device", "collectives after XLA's passes",
              "peak memory per device", f"step time, median of {len(sides['XLA']['times'])}")
    first = max(len(label) for label in labels)
    width = [max(len(r[0]), *(len(r[k]) for k in range(1, len(labels)))) for r in rows]
    print((f"  {'':<{first}}" + "".join(f"  {r[0]:<{w}}" for r, w in
                                        zip(rows, width))).rstrip())
    for k in range(1, len(labels)):
        print(f"  {labels[k]:<{first}}" + "".join(f"  {r[k]:<{w}}" for r, w in
                                                  zip(rows, width)).rstrip())
    sp, xla = report["shardpy"]["median_seconds"], report["XLA"]["median_seconds"]
    if sp and xla:
        report["step_time_ratio"] = sp / xla
        print(f"  step time shardpy / XLA: {sp / xla:.2f}x (runs alternating; on a busy "
              f"host, differences of a few percent are noise)")
    return report


def _manual_origins(module, index: int) -> list:
    """Locations of the manual code (sdy.manual_computation, GSPMD's SPMDShardToFullShape)
    that result `index` of the entry function is computed from, where that code leaves
    some of its manual axes out of the result's sharding (so it declares the devices
    along them to hold one value)."""
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import sdy
    from shardpy.ir.utils import public_main
    from shardpy.sharding.sdy_codec import ShardingCodec
    from shardpy.sharding.state import manual_axes

    main = public_main(module)
    if main is None:
        return []
    body = main.regions[0].blocks[0]
    ret = body.operations[len(body.operations) - 1]
    if index >= len(ret.operands):
        return []
    codec = ShardingCodec.for_module(module)
    found, seen, stack = [], set(), [ret.operands[index]]
    while stack:
        value = stack.pop()
        if not isinstance(value, ir.OpResult):
            continue
        op = value.owner.operation
        key = str(op.location) + op.name
        if key in seen:
            continue
        seen.add(key)
        if op.name == "sdy.manual_computation":
            outs = sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings
            used = {a.name for d in codec.decode(outs[value.result_number]).dims
                    for a in d.axes}
            if manual_axes(op) - used:
                found.append(op.location)
        elif op.name == "stablehlo.custom_call" and ir.StringAttr(
                op.attributes["call_target_name"]).value == "SPMDShardToFullShape":
            found.append(op.location)
        stack.extend(op.operands)
    return found


def _run_reference(executor, context, module, inputs, repeats, report, num_devices):
    """The global program on one device; programs with per-device code (manual
    computations) have no single-device form and run through XLA's partitioner
    (on as many devices as the partitioned run)."""
    from shardpy.ir.utils import drop_data_flow_edges
    from shardpy.passes.strip_shardings import StripShardings, has_per_device_code

    if has_per_device_code(module):
        print("reference: XLA's SPMD partitioner (the module has per-device code)")
        report["reference"] = "xla-partitioner"
        with context:
            drop_data_flow_edges(module)  # (Shardy's import in XLA makes its own)
        return executor.run_global_by_xla(module, inputs, repeats, num_devices)
    with context, module.location:
        StripShardings().run(module)
    report["reference"] = "single-device"
    return executor.run_global(module, inputs, repeats)


def _run_reference_by_xla(executor, context, module, partitioned, inputs, num_devices,
                          report):
    """--check-against xla (the default across processes, where no process may hold a
    whole sharded value, so no one-device run): XLA's own partitioner (Shardy) runs the
    same global module on the same devices, its arguments and results laid out as
    shardpy's per-device program lays them out (unreduced results summed; uneven ones
    padded at XLA's boundary), and each process keeps its devices' blocks. Two
    partitioners agreeing block by block is the check."""
    print("reference: XLA's SPMD partitioner on the same devices (the arguments and "
          "results laid out as shardpy's)")
    report["reference"] = "xla-partitioner-same-layout"
    try:
        with context:
            return executor.run_partitioned_by_xla(module, partitioned, inputs, num_devices)
    except ShardpyError as err:
        raise ShardpyError(f"the reference, XLA's partitioner, failed: {err.message} "
                           f"(--check-against one-device compares with the unpartitioned "
                           f"program instead)", err.location) from None


def _reference_devices(context, module) -> int:
    """Devices the reference needs: one, or for per-device code (run by XLA's
    partitioner) every device of the module's meshes; a GSPMD module's meshes are
    the ones shardpy-import derives."""
    from shardpy.runtime import executor as runtime
    from shardpy.gspmd.import_gspmd import import_module
    from shardpy.passes.strip_shardings import has_per_device_code
    from shardpy.sharding.sdy_codec import module_meshes

    if not has_per_device_code(module):
        return 1
    meshes = module.clone()
    with context, module.location:
        import_module(meshes)
    sizes = [mesh.size for mesh in module_meshes(meshes).values() if not mesh.is_maximal]
    return max([runtime.device_count(meshes, runtime.signature(meshes))] + sizes)


def _check_host_devices(needed: int, requested: int | None) -> None:
    """More CPU host devices than can be made is an error before any is made."""
    limit = MAX_HOST_DEVICES
    if requested is not None and requested > limit:
        raise ShardpyError(f"--devices {requested} is more than the {limit} CPU host devices "
                           f"shardpy-run can make (XLA:CPU runs programs on at most {limit}); "
                           f"pass --devices {limit} or fewer")
    if needed > limit:
        raise ShardpyError(f"the program needs {needed} devices (its meshes) but shardpy-run "
                           f"can make at most {limit} CPU host devices (XLA:CPU runs programs "
                           f"on at most {limit}); use a smaller mesh, or run on --platform "
                           f"gpu|tpu with that many devices")


def _load_expected(path: Path, count: int, lazy: bool = False):
    """out0, out1, ... from `path`; `lazy` (one process of several): mapped from the
    file where stored uncompressed, so a process reads only the parts it compares."""
    mapped = arrays.mapped_members(path) if lazy else {}
    with arrays.open_npz(path, "expected outputs") as archive:
        missing = [f"out{i}" for i in range(count) if f"out{i}" not in archive.files]
        if missing:
            raise ShardpyError(f"'{path}' lacks {', '.join(missing)}")
        return [arrays.read_member(archive, mapped, f"out{i}") for i in range(count)]


def main(argv: list[str] | None = None) -> int:
    return run_tool("shardpy-run", main_body, argv)


if __name__ == "__main__":
    sys.exit(main())
