// What GSPMD cannot say is an error at its location.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-export-gspmd

sdy.mesh @mesh = <["x"=2]>
// expected-error@+1 {{cannot export <@mesh, [{}], unreduced={"x"}> to GSPMD: <@mesh, [{}], unreduced={"x"}> has unreduced axes; GSPMD cannot express partial values}}
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  // expected-error@+1 {{'sdy.all_gather' has no GSPMD form; export before the partitioner turns reshards into collectives}}
  %0 = sdy.all_gather [{"x"}] %a out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
