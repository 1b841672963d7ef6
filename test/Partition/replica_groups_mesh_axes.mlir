// With shardpy-to-local's compact option (auto: on above 64 devices; on; off),
// collectives name their device groups by mesh axes (#stablehlo.replica_group_mesh_axes)
// instead of listing every device id, shard offsets are computed from the partition id
// and other per-shard values read from a table with an entry per shard, not per device,
// so the per-device module does not grow with the device count (issue 17). XLA (jaxlib 0.10.2)
// reads one such mesh per module, rejects a mesh with fewer than two axes of size > 1,
// and ignores device_ids: a lone axis is written as two, every collective names the
// module's one attribute mesh, and a mesh with device_ids keeps dense lists.

// RUN: shardpy-opt %s --split-input-file --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives --shardpy-to-local='compact=on' | FileCheck %s
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives --shardpy-to-local | FileCheck %s --check-prefix=AUTO
// RUN: shardpy-opt %s --split-input-file --shardpy-propagate --shardpy-insert-reshards --shardpy-reshard-to-collectives --shardpy-to-local='compact=off' | FileCheck %s --check-prefix=AUTO

// Each module partitioned and run on its devices, equal to one device:
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[0])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[1])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[2])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[3])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[4])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// RUN: %python -c "import sys; print(open(sys.argv[1]).read().split('\n// -----\n')[5])" %s | shardpy-run - --check --pass-pipeline='builtin.module(shardpy-propagate,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local{compact=on})' | FileCheck %s --check-prefix=EXEC
// EXEC: check: PASS

// Two axes: the groups of "y", of "y","x" (the order of the axes is the order in a
// group) and of a sub-axis, named on the mesh itself.
// CHECK-LABEL: module @two_axes
// CHECK: stablehlo.all_gather{{.*}}replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "y">]>, use_global_device_ids
// CHECK: stablehlo.all_gather{{.*}}replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x">]>
// CHECK: stablehlo.all_reduce{{.*}}replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 4>]>, axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "y", sub_axis_info = (2)2>]>
// AUTO-LABEL: module @two_axes
// AUTO: stablehlo.all_gather{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]]>
// AUTO: stablehlo.all_gather{{.*}}replica_groups = dense<{{\[\[}}0, 4, 1, 5, 2, 6, 3, 7]]>
// AUTO: stablehlo.all_reduce{{.*}}replica_groups = dense<{{\[\[}}0, 1, 4, 5], [2, 3, 6, 7]]>
module @two_axes attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}, %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", "x"}, {}]>}, %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"x", "y":(2)2}>}) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
    %1 = sdy.all_gather [{"y", "x"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
    %2 = sdy.all_reduce {"x", "y":(2)2} %arg2 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    return %0, %1, %2 : tensor<16x8xf32>, tensor<16x8xf32>, tensor<8x8xf32>
  }
}

// -----

// One axis of 12 devices, and a second mesh over the same 12: the attribute mesh is the
// first one's axis written as two (2 x 6), and the second mesh's axis is named on it.
// CHECK-LABEL: module @lone_axis
// CHECK: stablehlo.all_gather{{.*}}replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "x'", size = 6>]>, axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "x'">]>
// CHECK: stablehlo.all_gather{{.*}}replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "x'", size = 6>]>, axes = [#stablehlo.axis_ref<name = "x'", sub_axis_info = (2)3>]>
// AUTO-LABEL: module @lone_axis
// AUTO: replica_groups = dense<{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]>
module @lone_axis attributes {mhlo.num_partitions = 12 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=12]>
  sdy.mesh @mesh2 = <["a"=4, "b"=3]>
  func.func public @main(%arg0: tensor<24x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<9x2xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"b"}, {}]>}) -> (tensor<24x2xf32>, tensor<9x2xf32>) {
    %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<24x2xf32>
    %1 = sdy.all_gather [{"b"}, {}] %arg1 out_sharding=<@mesh2, [{}, {}]> : tensor<9x2xf32>
    return %0, %1 : tensor<24x2xf32>, tensor<9x2xf32>
  }
}

// -----

// A second mesh whose axis does not fall on the attribute mesh's (4 across 2 x 6):
// that collective keeps its dense list.
// CHECK-LABEL: module @unaligned
// CHECK: stablehlo.all_gather{{.*}}replica_group_mesh_axes
// CHECK: stablehlo.all_gather{{.*}}replica_groups = dense<{{\[\[}}0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]>
module @unaligned attributes {mhlo.num_partitions = 12 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=12]>
  sdy.mesh @mesh2 = <["a"=3, "b"=4]>
  func.func public @main(%arg0: tensor<24x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"b"}, {}]>}) -> (tensor<24x2xf32>, tensor<8x2xf32>) {
    %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<24x2xf32>
    %1 = sdy.all_gather [{"b"}, {}] %arg1 out_sharding=<@mesh2, [{}, {}]> : tensor<8x2xf32>
    return %0, %1 : tensor<24x2xf32>, tensor<8x2xf32>
  }
}

// -----

// A mesh with device_ids: XLA would read the groups in iota order, so dense lists.
// CHECK-LABEL: module @device_ids
// CHECK: stablehlo.all_gather{{.*}}replica_groups = dense<{{\[\[}}0, 2], [1, 3]]>
module @device_ids attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>
  func.func public @main(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<4x2xf32> {
    %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4x2xf32>
    return %0 : tensor<4x2xf32>
  }
}

// -----

// Shard offsets (a replicated value sliced to its shard, an iota made per device) come
// from the partition id: the coordinate along "data" is id // 4, along "model" id % 4;
// with compact=off, from a table with an entry per device.
// CHECK-LABEL: module @offsets
// CHECK:         %[[PID:.*]] = stablehlo.convert %{{.*}} : (tensor<ui32>) -> tensor<i32>
// CHECK-NOT:     dense<[0, 32
// CHECK:         stablehlo.divide %[[PID]], %{{.*}} : tensor<i32>
// CHECK:         stablehlo.remainder %[[PID]], %{{.*}} : tensor<i32>
// CHECK-NOT:     dense<[0, 32
// AUTO-LABEL: module @offsets
// AUTO: stablehlo.constant dense<[0, 0, 0, 0, 32, 32, 32, 32]> : tensor<8xi32>
module @offsets attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<64x32xf32>) -> (tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}) {
    %0 = stablehlo.sine %arg0 : tensor<64x32xf32>
    %1 = stablehlo.iota dim = 0 : tensor<64x32xf32>
    %2 = stablehlo.add %0, %1 : tensor<64x32xf32>
    return %2 : tensor<64x32xf32>
  }
}

// -----

// Per-shard values that are not offsets (a max over an uneven sharded dim: each shard's
// count of real elements, 3, 3, 3, 1 along "y", masks the padding): with compact=on a
// table of one entry per shard, indexed by the coordinate computed from the partition
// id; with compact=off one entry per device.
// CHECK-LABEL: module @per_shard
// CHECK:         stablehlo.constant dense<[3, 3, 3, 1]> : tensor<4xi32>
// CHECK:         stablehlo.remainder
// CHECK-NOT:     tensor<8xi32>
// AUTO-LABEL: module @per_shard
// AUTO:          stablehlo.constant dense<[3, 3, 3, 1, 3, 3, 3, 1]> : tensor<8xi32>
module @per_shard attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<2x10xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    %c = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.maximum across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
