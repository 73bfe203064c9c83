// tt-mlir's own negative tests of its MoE ops (copies in Inputs/, tt-mlir commit in Inputs/README.md),
// TTIR and TTNN: each chunk refused, located at the op, with tt-mlir's message (the CHECK lines
// are tt-mlir's own, under a prefix a file).
// RUN: not meshc-opt --split-input-file %S/Inputs/ttir_all_to_all_dispatch_negative.mlir 2>&1 | filecheck %s --check-prefix=TTIR_ALL_TO_ALL_DISPATCH
// RUN: not meshc-opt --split-input-file %S/Inputs/ttir_all_to_all_dispatch_metadata_negative.mlir 2>&1 | filecheck %s --check-prefix=TTIR_ALL_TO_ALL_DISPATCH_METADATA
// RUN: not meshc-opt --split-input-file %S/Inputs/ttir_all_to_all_combine_negative.mlir 2>&1 | filecheck %s --check-prefix=TTIR_ALL_TO_ALL_COMBINE
// RUN: not meshc-opt --split-input-file %S/Inputs/ttir_moe_expert_token_remap_negative.mlir 2>&1 | filecheck %s --check-prefix=TTIR_MOE_EXPERT_TOKEN_REMAP
// RUN: not meshc-opt --split-input-file %S/Inputs/ttnn_all_to_all_dispatch_negative.mlir 2>&1 | filecheck %s --check-prefix=TTNN_ALL_TO_ALL_DISPATCH
// RUN: not meshc-opt --split-input-file %S/Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir 2>&1 | filecheck %s --check-prefix=TTNN_ALL_TO_ALL_DISPATCH_METADATA
// RUN: not meshc-opt --split-input-file %S/Inputs/ttnn_all_to_all_combine_negative.mlir 2>&1 | filecheck %s --check-prefix=TTNN_ALL_TO_ALL_COMBINE
// RUN: not meshc-opt --split-input-file %S/Inputs/ttnn_moe_expert_token_remap_negative.mlir 2>&1 | filecheck %s --check-prefix=TTNN_MOE_EXPERT_TOKEN_REMAP
// TTIR_ALL_TO_ALL_DISPATCH: Inputs/ttir_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch' op input_tensor must be a 4D tensor
// TTIR_ALL_TO_ALL_DISPATCH: Inputs/ttir_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch' op expert_indices must be a 4D tensor
// TTIR_ALL_TO_ALL_DISPATCH: Inputs/ttir_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch' op num_devices must be positive
// TTIR_ALL_TO_ALL_DISPATCH: Inputs/ttir_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch' op cluster_axis must be 0 or 1
// TTIR_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttir_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch_metadata' op input_tensor must be a 4D tensor
// TTIR_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttir_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch_metadata' op expert_scores must be a 4D tensor
// TTIR_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttir_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch_metadata' op num_devices must be positive
// TTIR_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttir_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_dispatch_metadata' op cluster_axis must be 0 or 1
// TTIR_ALL_TO_ALL_COMBINE: Inputs/ttir_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_combine' op input_tensor must be a 4D tensor
// TTIR_ALL_TO_ALL_COMBINE: Inputs/ttir_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_combine' op num_devices must be positive
// TTIR_ALL_TO_ALL_COMBINE: Inputs/ttir_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_combine' op cluster_axis must be 0 or 1
// TTIR_ALL_TO_ALL_COMBINE: Inputs/ttir_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttir.all_to_all_combine' op num_experts_per_tok must be positive
// TTIR_MOE_EXPERT_TOKEN_REMAP: Inputs/ttir_moe_expert_token_remap_negative.mlir:{{[0-9]+}}:5: error: 'ttir.moe_expert_token_remap' op expert_mapping must be a 4D tensor
// TTIR_MOE_EXPERT_TOKEN_REMAP: Inputs/ttir_moe_expert_token_remap_negative.mlir:{{[0-9]+}}:5: error: 'ttir.moe_expert_token_remap' op expert_metadata must be a 4D tensor
// TTNN_ALL_TO_ALL_DISPATCH: Inputs/ttnn_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch' op input_tensor must be a 4D tensor
// TTNN_ALL_TO_ALL_DISPATCH: Inputs/ttnn_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch' op expert_indices must be a 4D tensor
// TTNN_ALL_TO_ALL_DISPATCH: Inputs/ttnn_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch' op num_devices must be positive
// TTNN_ALL_TO_ALL_DISPATCH: Inputs/ttnn_all_to_all_dispatch_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch' op cluster_axis must be 0 or 1
// TTNN_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch_metadata' op input_tensor must be a 4D tensor
// TTNN_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch_metadata' op expert_scores must be a 4D tensor
// TTNN_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch_metadata' op expert_mapping must be a 2D tensor
// TTNN_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch_metadata' op num_devices must be positive
// TTNN_ALL_TO_ALL_DISPATCH_METADATA: Inputs/ttnn_all_to_all_dispatch_metadata_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_dispatch_metadata' op cluster_axis must be 0 or 1
// TTNN_ALL_TO_ALL_COMBINE: Inputs/ttnn_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_combine' op input_tensor must be a 4D tensor
// TTNN_ALL_TO_ALL_COMBINE: Inputs/ttnn_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_combine' op num_devices must be positive
// TTNN_ALL_TO_ALL_COMBINE: Inputs/ttnn_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_combine' op cluster_axis must be 0 or 1
// TTNN_ALL_TO_ALL_COMBINE: Inputs/ttnn_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_combine' op num_experts_per_tok must be positive
// TTNN_ALL_TO_ALL_COMBINE: Inputs/ttnn_all_to_all_combine_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.all_to_all_combine' op output_shard_dim must be 1 or 2, got 3
// TTNN_MOE_EXPERT_TOKEN_REMAP: Inputs/ttnn_moe_expert_token_remap_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.moe_expert_token_remap' op expert_mapping must be a 4D tensor
// TTNN_MOE_EXPERT_TOKEN_REMAP: Inputs/ttnn_moe_expert_token_remap_negative.mlir:{{[0-9]+}}:5: error: 'ttnn.moe_expert_token_remap' op expert_metadata must be a 4D tensor
