// lanediff device kernels: the code-object metadata every family shares (configured per target
// and wave size by device_harness/CMakeLists.txt, included at the end of kernels/<family>.s).
// The argument layout must match KernelArgs in device_harness/code_object.h.
  .amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.target: amdgcn-amd-amdhsa--@LANEDIFF_TARGET@
amdhsa.kernels:
  - .name: lanediff_kernel
    .symbol: lanediff_kernel.kd
    .kernarg_segment_size: 64
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .uses_dynamic_stack: false
    .wavefront_size: @LANEDIFF_WAVE@
    .sgpr_count: 36
    .vgpr_count: @LANEDIFF_VGPR_COUNT@
    .max_flat_workgroup_size: 256
    .reqd_workgroup_size: [ 256, 1, 1 ]
    .args:
      - { .name: src0, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: src1, .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: src2, .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: vdst_old, .offset: 24, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only }
      - { .name: out, .offset: 32, .size: 8, .value_kind: global_buffer, .address_space: global, .actual_access: write_only }
      - { .name: n, .offset: 40, .size: 4, .value_kind: by_value }
      - { .name: mode, .offset: 44, .size: 4, .value_kind: by_value }
      - { .name: sgpr0, .offset: 48, .size: 4, .value_kind: by_value }
      - { .name: sgpr1, .offset: 52, .size: 4, .value_kind: by_value }
      - { .name: sgpr2, .offset: 56, .size: 4, .value_kind: by_value }
      - { .name: shape, .offset: 60, .size: 4, .value_kind: by_value }
...
  .end_amdgpu_metadata
