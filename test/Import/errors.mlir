// A GSPMD sharding that cannot be imported is an error at the op (or argument) that
// carries it, naming the sharding; nothing is guessed.
// RUN: shardpy-opt %s --split-input-file --verify-diagnostics --shardpy-import

// expected-error@+1 {{cannot parse GSPMD sharding '{devices=[2,2'}}
func.func @unparsable(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,2"}) -> tensor<8x8xf32> {
  return %a : tensor<8x8xf32>
}

// -----

func.func @rank_mismatch(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error@+1 {{sharding '{devices=[2,2]<=[4]}' tiles 2 dimension(s) of a rank-1 value}}
  %0 = stablehlo.negate %a {mhlo.sharding = "{devices=[2,2]<=[4]}"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @not_a_permutation(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{sharding '{devices=[2,2]0,1,1,3}': devices [0, 1, 1, 3] are not a permutation of 0..3}}
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2,2]0,1,1,3}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @unknown(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{sharding '{unknown}' is unknown; nothing to import}}
  %0 = stablehlo.negate %a {mhlo.sharding = "{unknown}"} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @tuple_count(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{has 2 element(s) for 1 result(s)}}
  %0 = stablehlo.negate %a {mhlo.sharding = "{{replicated}, {replicated}}"} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @exit_without_entry(%a: tensor<4x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{custom_call @SPMDShardToFullShape without its partner}}
  %0 = stablehlo.custom_call @SPMDShardToFullShape(%a) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @entry_without_exit(%a: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.negate %1 : tensor<4x8xf32>
  // expected-error@+1 {{a manual value (from @SPMDFullToShardShape) leaves the function without @SPMDShardToFullShape}}
  return %2 : tensor<4x8xf32>
}

// -----

func.func @entry_without_global_sharding(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{@SPMDFullToShardShape needs the global layout of its operand: a @Sharding custom call on it, or a sharding on the op or argument that makes it}}
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

func.func @wrong_local_shape(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-error@+1 {{manual operand tensor<8x8xf32> with sharding <@mesh, [{"axis_0"}, {}]> over manual axes ['axis_0'] has local shape [4, 8], but the custom call says tensor<8x4xf32>}}
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8x8xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<8x4xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

func.func @entry_not_manual(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  // expected-error@+1 {{@SPMDFullToShardShape has sharding '{devices=[2,1]<=[2]}', which is not manual}}
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<4x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

func.func @two_meshes(%a: tensor<6x6xf32>, %b: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2,3]<=[6]}"} : (tensor<6x6xf32>) -> tensor<6x6xf32>
  // expected-error@+1 {{the shardings around this manual region lie on different meshes (@mesh, @mesh_1); one manual computation needs one mesh}}
  %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<6x6xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.custom_call @SPMDShardToFullShape(%1) {mhlo.sharding = "{devices=[3,2]<=[6]}"} : (tensor<3x2xf32>) -> tensor<6x6xf32>
  return %2 : tensor<6x6xf32>
}
