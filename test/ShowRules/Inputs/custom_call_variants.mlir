// More custom call targets and shapes for the agreement test (no FileCheck).
func.func @targets(%x: tensor<8x16xf32>, %s: tensor<f32>, %m: tensor<2x8x6xf32>, %t: tensor<2x5xf32>, %v: tensor<16xf32>, %i: tensor<i32>, %iota: tensor<16xi32>) {
  %0:2 = stablehlo.custom_call @Eigh(%x) : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  %1:2 = stablehlo.custom_call @QrDecompositionBlock(%m) : (tensor<2x8x6xf32>) -> (tensor<2x8x6xf32>, tensor<2x6xf32>)
  %2 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%m, %t) : (tensor<2x8x6xf32>, tensor<2x5xf32>) -> tensor<2x8x6xf32>
  %3:2 = stablehlo.custom_call @mhlo.topk(%v) {mhlo.attributes = {k = 16 : i64, largest = true}} : (tensor<16xf32>) -> (tensor<16xf32>, tensor<16xi32>)
  %4:2 = stablehlo.custom_call @PartialReduce(%v, %iota, %s, %i) : (tensor<16xf32>, tensor<16xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  %5 = stablehlo.custom_call @mhlo.erf(%s) : (tensor<f32>) -> tensor<f32>
  %6 = stablehlo.custom_call @X64SplitLow(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = stablehlo.custom_call @X64SplitHigh(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %8 = stablehlo.custom_call @InspectSharding(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %9 = stablehlo.custom_call @LayoutConstraint(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %10 = stablehlo.custom_call @MoveToDevice(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %11 = stablehlo.custom_call @CompactWyHelper(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %12 = stablehlo.custom_call @InvertDiagBlocksLowerTriangular(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %13 = stablehlo.custom_call @InvertDiagBlocksUpperTriangular(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %14 = stablehlo.custom_call @xla.megascale.provide_metadata(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %15 = stablehlo.custom_call @sdy_testonly(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %16 = stablehlo.custom_call @tpu_custom_call(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %17 = stablehlo.custom_call @xla_python_gpu_callback(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %18 = stablehlo.custom_call @SPMDFullToShardShape(%x) : (tensor<8x16xf32>) -> tensor<4x16xf32>
  %19 = stablehlo.custom_call @lapack_sgetrf_ffi(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}
