# lit configuration for shardpy: FileCheck tests of passes and tools, and
# executable tests that run partitioned programs on CPU host devices.
import os
import shutil
import sys

import lit.formats

config.name = "shardpy"
config.test_format = lit.formats.ShTest()  # lit's internal shell: same on every machine
config.suffixes = [".mlir", ".test"]
config.excludes = ["python", "Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

# Tools come from the environment lit runs in (the project's virtualenv).
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR", "SHARDPY_DEBUG", "JAX_PLATFORMS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def tool(name):
    path = shutil.which(name, path=config.environment["PATH"])
    if path is None:
        lit_config.fatal(f"'{name}' not found next to {sys.executable}; run `pip install -e .[test]`")
    return path


# Whole-word substitutions, so file names that merely contain a tool name are left alone.
def word(name):
    return r"(?<![\w/.-])" + name.replace("-", r"\-") + r"(?![\w-])"


config.substitutions.append(("%python", sys.executable))
config.substitutions.append((word("shardpy-opt"), tool("shardpy-opt")))
config.substitutions.append((word("shardpy-run"), tool("shardpy-run")))
config.substitutions.append((word("FileCheck"), tool("filecheck")))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(config.test_source_root), "examples")))
config.substitutions.append(("%corpus", os.path.join(os.path.dirname(config.test_source_root), "bench", "corpus")))
# Tests that pin a lowering which the shipped cost profile chooses only for larger
# shards than a test holds (halo exchanges, all_to_alls around a sort) run under a
# profile in which nothing takes time, so bytes moved rank the plans
# (test/Inputs/bytes_only_profile.json).
config.substitutions.append(("%bytes_only", "env SHARDPY_COST_PROFILE=" + os.path.join(
    config.test_source_root, "Inputs", "bytes_only_profile.json")))
