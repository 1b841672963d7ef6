// --explain (issue 18): every collective of the per-device program, most expensive
// first, with the op that needed it at its location, the layouts before and after and
// where each came from. A Megatron MLP has one: the all_reduce of the second matmul's
// partial sums over "model" (line 39 below), which the result's annotation wants whole.
//
// RUN: shardpy-run %s --explain --check --explain-json %t.json | FileCheck %s
// CHECK: == why each collective is here (--explain)
// CHECK-NEXT: 1 collective(s), 1.5 KiB per device, ~{{.*}} us estimated
// CHECK-NEXT: 1. all_reduce axes model 1.5 KiB {{.*}} us result of stablehlo.dot_general at {{.*}}megatron_mlp.mlir:39:10
// CHECK-NEXT: layout: <@mesh, [{"data"}, {}], unreduced={"model"}> -> <@mesh, [{"data"}, {}]>
// CHECK-NEXT: had it from: computed stablehlo.dot_general at {{.*}}megatron_mlp.mlir:39:10
// CHECK-NEXT: needed by: propagated func.return [the function's result sharding] <- annotated a function result's sharding
// CHECK: check: PASS
//
// RUN: %python -c "import json; r = json.load(open('%t.json'))['collectives']; print(len(r), r[0]['kind'], r[0]['axes'], r[0]['bytes'], r[0]['op'], r[0]['loc'].split('/')[-1], r[0]['why'], sorted(r[0]))" | FileCheck %s --check-prefix=JSON
// JSON: 1 all_reduce ['model'] 1536.0 stablehlo.dot_general megatron_mlp.mlir:39:10 result ['alternatives', 'axes', 'bytes', 'collective_loc', 'from_sharding', 'group_size', 'kind', 'loc', 'op', 'origin', 'placements', 'reasons', 'seconds', 'to_sharding', 'why']
//
// --explain-html writes the page (its rendering is tested in a browser:
// test/python/explain/test_html.py): one file, the records and the program inside.
// RUN: shardpy-run %s --explain-html %t.html | FileCheck %s --check-prefix=PAGE
// PAGE: out0: float32[16, 32]
// RUN: %python -c "import json, re; t = open('%t.html').read(); d = json.loads(re.search(r'id=\"shardpy-explain-data\">(.*?)</script>', t, re.S).group(1))['document']; print(len(d['collectives']), d['collectives'][0]['kind'], len(d['program']['nodes']) > 5, 'http' in t)" | FileCheck %s --check-prefix=HTML
// HTML: 1 all_reduce True False
//
// shardpy-opt prints the same to stderr and leaves the per-device module as it is
// without --explain (the tags that carried the reasons are gone).
// RUN: shardpy-opt %s --shardpy-partition --explain -o %t.explained.mlir 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: 1. all_reduce axes model 1.5 KiB {{.*}} result of stablehlo.dot_general at {{.*}}megatron_mlp.mlir:39:10
// RUN: shardpy-opt %s --shardpy-partition --mlir-print-debuginfo -o %t.plain.mlir
// RUN: shardpy-opt %s --shardpy-partition --explain --mlir-print-debuginfo -o %t.explained.mlir 2>/dev/null
// RUN: diff %t.plain.mlir %t.explained.mlir

module @jit_megatron_mlp attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  func.func public @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg2: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}) -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %z = stablehlo.constant dense<0.0> : tensor<16x64xf32>
    %1 = stablehlo.maximum %0, %z : tensor<16x64xf32>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    return %2 : tensor<16x32xf32>
  }
}
