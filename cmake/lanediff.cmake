# One call declares a library, a test beside it, a binary or a fuzz target.
#
#   lanediff_library(NAME model_fp SRCS f32.cc u8.cc DEPS absl::status)
#   lanediff_test(NAME model_fp_test SRCS u8_test.cc DEPS model_fp [LABELS slow])
#   lanediff_fuzzer(NAME encoding_fuzzer SRCS encoding_fuzzer.cc DEPS model_isa)
#
# Tests get the CTest label "default" unless LABELS names others (slow, gpu, llvm, once).
# A test that exits 77 is reported as skipped (GPU tests with no GPU, for example).
# Label "once": the test cannot fail differently under another compiler or the sanitizers
# (it reads sources, or checks the CLI's text, files and exit codes), so scripts/test.sh runs
# it in the release flavour only; the asan and gcc flavours pass -LE once.
#
# Long test binaries run as several CTest entries so that `ctest -j` keeps every core busy:
# SHARDS n (or the binary's row in LANEDIFF_TEST_SHARDS below) registers NAME/1ofn ... NAME/nofn,
# each running the binary with GTEST_TOTAL_SHARDS=n GTEST_SHARD_INDEX=i-1 (GoogleTest deals
# the binary's tests round-robin over the shards; a shard may hold none and then passes).
# `ctest -R NAME` still selects all of them. ENV adds environment variables to every entry.
#
# Compile time: with LANEDIFF_PCH (default ON) every library, binary and test unit uses one of
# three shared precompiled headers (cmake/pch/, lanediff_use_pch below): the standard library,
# Abseil and protobuf; plus the generated protobuf headers and the most included project
# headers; plus GoogleTest/GoogleMock for tests. Fuzzers (built with -fsanitize=fuzzer) do not.

set(LANEDIFF_WARNINGS -Wall -Wextra)
option(LANEDIFF_PCH "Compile with the shared precompiled headers of cmake/pch/" ON)
# ccache compiles a unit that uses a precompiled header without caching it unless told to be
# sloppy about the header's defines and timestamps (ccache manual, "Precompiled headers").
foreach(lang C CXX)
  if(LANEDIFF_PCH AND CMAKE_${lang}_COMPILER_LAUNCHER MATCHES "ccache")
    set(CMAKE_${lang}_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
        ${CMAKE_${lang}_COMPILER_LAUNCHER})
  endif()
endforeach()

# The longest tests, NAME=seconds, as CTest measured them in the release flavour (ctest -j2 on
# a 2-core machine shared with other builds, load average 12-17, so the seconds are inflated;
# their order is what counts; scripts/test.sh keeps each run's times in build/test-artifacts/).
# fuzz_selftest_test, fuzz_triage_erratum_buckets_test and fuzz_discriminate_test carry their
# ASan+UBSan times (ctest -j2, a 2-core machine with one other build), where they are longest.
# Scaled on 2026-12-02 by the CPU seconds (/usr/bin/time) their cases lost to seeded (target,
# row) samples and batched LLVM tool runs: device_code_object_test 46 -> 15 (release),
# model_isa_llvm_test's raw-word half 24 -> 8, fuzz_selftest_test's exec: discriminate case
# 118 -> 49 (ASan+UBSan), fuzz_triage_nightly_rows_test 42 -> 10 (release).
# They become the tests' COST: CTest starts the costliest first when it has no cost data of its
# own (a fresh clone), so a long test does not start last and run alone on one core. A sharded
# test's entries share its cost.
set(LANEDIFF_TEST_COSTS
  device_code_object_test=100 device_harness_exec_test=220 fuzz_selftest_test=400
  fuzz_triage_erratum_buckets_test=160 fuzz_discriminate_test=110
  model_isa_llvm_test=110 fuzz_triage_nightly_test=130 fuzz_triage_nightly_rows_test=35
  install_deb_test=113 fuzz_cli_flag_vocabulary_test=105 model_pair_exhaustive_test=100
  fuzz_llvm_mc_diff_test=85 fuzz_cli_readme_tour_test=65
  device_harness_serve_test=60 fuzz_cli_open_device_test=55 fuzz_cli_paths_exit_codes_test=40
  fuzz_cli_json_test=38 fuzz_cli_discriminate_table_test=34 fuzz_report_chromium_test=33
  reliability_bad_input_test=28 fuzz_asm_command_test=27 fuzz_eval_command_test=25
  model_fp_test=22 proto_text_format_test=21 fuzz_campaign_test=20 device_hip_test=14)
# Test binaries split into shards (NAME=count): those whose measured time is far above the
# rest and whose GoogleTest cases are many enough to deal out. Sharding a test elsewhere:
# SHARDS n.
# device_code_object_test: 3 (its 15 cases dealt round-robin give three shards of 9-15 s; a
# fourth held only sub-second cases). fuzz_selftest_test: 10, one case a shard (in release the
# shards of gfx1251's and gfx1250's every-target cases take 19 s and 14 s wall in a clean-clone
# run, the HIP-runner and bundle-replay cases, each on a sample of gfx1250's rows, a few
# seconds; dealt into 6 shards two long cases met in one and timed out at 300 s).
set(LANEDIFF_TEST_SHARDS device_code_object_test=3 fuzz_selftest_test=10 model_isa_llvm_test=2
  fuzz_triage_erratum_buckets_test=4 fuzz_discriminate_test=3)

# The tests whose result depends on the code the compiler generated, labelled `compiler`; the g++
# flavour of scripts/test.sh runs these (every test of the release flavour also runs under ASan+
# UBSan). An entry is a test name or a regular expression over names (a sharded test's entries
# are included); each must match a test. They compute values that must be bit-identical under
# any compiler: the model's conversions, rounding and encodings (model_*), the simulator and the
# kernel interpreter that execute the harness's code objects on every target (the fake-GPU
# tests), the batch and operand layout, the seeded lane generation and mutation that make a
# campaign replay bit for bit (the golden campaign, which fails if g++ evaluated arguments in
# another order), and the decisions the triage takes from model values (attribution,
# classification, minimization, discrimination). Left to release and ASan+UBSan: process, file
# and CLI handling (reliability_*, exec/serve/isolation, corpus store, report, paths, JSON),
# where the compiler changes nothing observable; the LLVM-oracle tests of code objects (their
# bytes run in the fake-GPU tests); the self-test and the per-erratum campaigns, whose numerics
# are the model's (held above) and whose decisions are the triage's (held above).
set(LANEDIFF_COMPILER_TESTS "model_.*" "proto_.*" corpus_seeds_test
  "device_hip_fake_gpu_test_.*" device_hip_gpu_test device_hip_selftest_gpu_test device_hip_test
  device_interp_test device_harness_sim_test device_harness_batch_test
  device_harness_resolve_case_test device_harness_kernel_state_test device_harness_replay_test
  fuzz_compare_test fuzz_lane_gen_test fuzz_mutator_test fuzz_campaign_golden_test
  fuzz_campaign_test fuzz_resolved_test_test fuzz_triage_attribution_test fuzz_classify_test
  fuzz_minimize_test fuzz_discriminate_test fuzz_sweep_test fuzz_eval_command_test)

# At the end of each directory that declares tests, LANEDIFF_TEST_COSTS becomes COST and
# LANEDIFF_COMPILER_TESTS the label `compiler` (set_tests_properties reaches only the tests of
# its own directory).
function(_lanediff_apply_costs)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(pattern IN LISTS LANEDIFF_COMPILER_TESTS)
    foreach(test IN LISTS tests)
      if(test MATCHES "^(${pattern})(/[0-9]+of[0-9]+)?$")
        get_test_property(${test} LABELS labels)
        set_tests_properties(${test} PROPERTIES LABELS "${labels};compiler")
        set_property(GLOBAL APPEND PROPERTY LANEDIFF_COMPILER_MATCHED "${pattern}")
      endif()
    endforeach()
  endforeach()
  foreach(row IN LISTS LANEDIFF_TEST_COSTS)
    if(NOT row MATCHES "^([^=]+)=([0-9]+)$")
      message(FATAL_ERROR "LANEDIFF_TEST_COSTS: '${row}' is not NAME=seconds")
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(cost "${CMAKE_MATCH_2}")
    foreach(test IN LISTS tests)
      if(test STREQUAL name)
        set_tests_properties(${test} PROPERTIES COST ${cost})
      elseif(test MATCHES "^${name}/[0-9]+of([0-9]+)$")
        math(EXPR share "${cost} / ${CMAKE_MATCH_1}")
        set_tests_properties(${test} PROPERTIES COST ${share})
      endif()
    endforeach()
  endforeach()
endfunction()
function(_lanediff_defer_costs)
  get_property(deferred DIRECTORY PROPERTY LANEDIFF_COSTS_DEFERRED)
  if(NOT deferred)
    set_property(DIRECTORY PROPERTY LANEDIFF_COSTS_DEFERRED TRUE)
    cmake_language(DEFER CALL _lanediff_apply_costs)
  endif()
endfunction()
_lanediff_defer_costs()  # the top directory (install_deb_test)
# Last of all (the top directory's deferred calls run after every subdirectory's): each entry of
# LANEDIFF_COMPILER_TESTS named a test, so a renamed test cannot silently leave the g++ run.
function(_lanediff_check_compiler_tests)
  get_property(matched GLOBAL PROPERTY LANEDIFF_COMPILER_MATCHED)
  foreach(pattern IN LISTS LANEDIFF_COMPILER_TESTS)
    if(NOT pattern IN_LIST matched)
      message(FATAL_ERROR "LANEDIFF_COMPILER_TESTS: '${pattern}' matches no test")
    endif()
  endforeach()
endfunction()
cmake_language(DEFER CALL _lanediff_check_compiler_tests)
if(LANEDIFF_SANITIZE)
  set(LANEDIFF_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${LANEDIFF_SAN_FLAGS})
  add_link_options(${LANEDIFF_SAN_FLAGS})
endif()
if(LANEDIFF_FUZZERS AND LANEDIFF_FUZZ_COVERAGE)
  # Everything carries coverage instrumentation; only fuzzer executables link the driver.
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
endif()
# Link with LLVM 22's lld (package lld-22) where the compiler accepts it: it links a test
# binary in about half the CPU time of GNU ld (an ASan+UBSan test binary: 0.84 s against
# 1.84 s), and a flavour links about 160 binaries. clang-22 finds ld.lld beside itself; g++
# looks for it in the -B directory.
include(CheckLinkerFlag)
set(LANEDIFF_LLD_FLAGS -fuse-ld=lld)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND LANEDIFF_LLD_FLAGS -B${LANEDIFF_LLVM_BIN})
endif()
check_linker_flag(CXX "${LANEDIFF_LLD_FLAGS}" LANEDIFF_HAVE_LLD)
if(LANEDIFF_HAVE_LLD)
  add_link_options(${LANEDIFF_LLD_FLAGS})
else()
  message(STATUS "lanediff: linking with the compiler's default linker (no ld.lld in ${LANEDIFF_LLVM_BIN})")
endif()

function(_lanediff_common target)
  target_compile_options(${target} PRIVATE ${LANEDIFF_WARNINGS})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
endfunction()

# The test units' optimization level (every lanediff_test and the test precompiled header; clang
# and g++ refuse a precompiled header made at another level). The code under test is compiled
# as shipped (the flavour's CMAKE_BUILD_TYPE flags); a test unit is mostly GoogleTest macro
# expansion that -O3 spends seconds on and that runs once. Measured on one unit each (clang-22,
# user+sys s, -O3 -> -O0): code_object_test.cc 6.9 -> 3.1, campaign_test.cc 5.5 -> 2.9,
# sim_runner_test.cc 5.2 -> 2.3, process_test.cc 7.8 -> 3.4. Empty: the flavour's own level.
set(LANEDIFF_TEST_OPTIMIZE "-O0" CACHE STRING "Optimization flag of the test units (empty: the build type's)")

# The test units' compile definitions (every lanediff_test and the test precompiled header).
set(LANEDIFF_TEST_DEFINITIONS
  LANEDIFF_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  LANEDIFF_BINARY_DIR="${PROJECT_BINARY_DIR}"
  LANEDIFF_LLVM_BIN="${LANEDIFF_LLVM_BIN}")

# True in OUT when TARGET links lanediff_proto, directly or through the project's libraries.
function(_lanediff_links_proto target out)
  set(pending ${target})
  set(seen "")
  while(NOT pending STREQUAL "")  # not while(pending): a list starting "x-NOTFOUND" reads as false
    list(POP_FRONT pending t)
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(imported ${t} IMPORTED)
    if(imported)
      continue()
    endif()
    if(t STREQUAL "lanediff_proto" AND NOT t STREQUAL target)
      set(${out} TRUE PARENT_SCOPE)
      return()
    endif()
    get_target_property(links ${t} LINK_LIBRARIES)
    get_target_property(ilinks ${t} INTERFACE_LINK_LIBRARIES)
    foreach(l IN LISTS links ilinks)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" l "${l}")
      list(APPEND pending ${l})
    endforeach()
  endwhile()
  set(${out} FALSE PARENT_SCOPE)
endfunction()

# lanediff_use_pch(TARGET [TEST]): TARGET reuses one of three shared precompiled headers, each
# made on first use by an object library that compiles nothing else:
#   lanediff_pch_lib      cmake/pch/lanediff_pch.h: the standard library, Abseil, protobuf.
#                         For lanediff_proto and the libraries below it (model_fp,
#                         model_targets, model_ops), which cannot wait for protoc's headers.
#   lanediff_pch_project  cmake/pch/lanediff_project_pch.h: that set plus the generated
#                         *.pb.h and the most included model, proto and device_harness headers.
#                         For every other library and binary (those that link lanediff_proto).
#   lanediff_pch_test     cmake/pch/lanediff_test_pch.h: the project set plus GoogleTest and
#                         GoogleMock, at LANEDIFF_TEST_OPTIMIZE. For every test.
# The header's users must compile with the same flags and definitions as its maker (clang
# refuses a mismatch); extra definitions of their own are fine. Measured on a cold release
# build (clang-22, 2 cores, no compiler cache; user+sys CPU of every compile and link, logged
# by a /usr/bin/time launcher): 373 s with two headers (std, Abseil, protobuf; + GoogleTest),
# 342 s with the project header (library units 225 -> 191 s, test units 115 -> 110 s, the
# three headers themselves 10 -> 18 s). A test unit's time is mostly GoogleTest's expansion and
# code generation, which no header saves.
# With g++ the project header is not used (the libraries that link lanediff_proto take the
# library header, and the test header builds on the library header): g++'s test header with
# the project set is a 200 MB .gch read whole by every unit, and its cost was not measured
# apart from other load, so the g++ flavour keeps the two headers it had.
# ccache: each maker gets the launcher's sloppiness above and, with clang, -fno-pch-timestamp;
# a change to a header or its flags changes every user's hash, so its users miss once.
function(lanediff_use_pch target)
  if(NOT LANEDIFF_PCH)
    return()
  endif()
  if(ARGV1 STREQUAL "TEST")
    set(maker lanediff_pch_test)
    set(header lanediff_test_pch.h)
  else()
    _lanediff_links_proto(${target} above_proto)
    if(above_proto AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      set(maker lanediff_pch_project)
      set(header lanediff_project_pch.h)
    else()
      set(maker lanediff_pch_lib)
      set(header lanediff_pch.h)
    endif()
  endif()
  if(NOT TARGET ${maker})
    set(anchor "${PROJECT_BINARY_DIR}/${maker}.cc")
    file(CONFIGURE OUTPUT "${anchor}" CONTENT "// Compiles ${maker}'s precompiled header only.\n")
    add_library(${maker} OBJECT "${anchor}")
    _lanediff_common(${maker})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      target_compile_options(${maker} PRIVATE -Xclang -fno-pch-timestamp)  # for ccache, as above
    endif()
    target_link_libraries(${maker} PRIVATE absl::status absl::statusor absl::strings
      absl::str_format absl::span protobuf::libprotobuf)
    if(NOT maker STREQUAL "lanediff_pch_lib")
      # lanediff_proto's generated headers exist before the header compiles (an object library
      # waits for its link dependencies' generated sources, not for their archives).
      target_link_libraries(${maker} PRIVATE lanediff_proto)
    endif()
    if(maker STREQUAL "lanediff_pch_test")
      target_link_libraries(${maker} PRIVATE GTest::gtest GTest::gmock)
      target_compile_definitions(${maker} PRIVATE ${LANEDIFF_TEST_DEFINITIONS})
      target_compile_options(${maker} PRIVATE ${LANEDIFF_TEST_OPTIMIZE})
    endif()
    target_precompile_headers(${maker} PRIVATE "${PROJECT_SOURCE_DIR}/cmake/pch/${header}")
  endif()
  target_precompile_headers(${target} REUSE_FROM ${maker})
endfunction()

function(lanediff_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  add_library(${A_NAME} STATIC ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PUBLIC ${A_DEPS})
  lanediff_use_pch(${A_NAME})
endfunction()

function(lanediff_binary)
  cmake_parse_arguments(A "" "NAME;OUTPUT_NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  lanediff_use_pch(${A_NAME})
  if(A_OUTPUT_NAME)
    set_target_properties(${A_NAME} PROPERTIES OUTPUT_NAME ${A_OUTPUT_NAME})
  endif()
endfunction()

function(lanediff_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT;SHARDS" "SRCS;DEPS;LABELS;ARGS;ENV" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${A_NAME} PRIVATE ${LANEDIFF_TEST_DEFINITIONS})
  target_compile_options(${A_NAME} PRIVATE ${LANEDIFF_TEST_OPTIMIZE})
  lanediff_use_pch(${A_NAME} TEST)
  _lanediff_defer_costs()
  if(NOT A_LABELS)
    set(A_LABELS default)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 600)
  endif()
  if(NOT A_SHARDS)
    set(A_SHARDS 1)
    foreach(row IN LISTS LANEDIFF_TEST_SHARDS)
      if(row MATCHES "^${A_NAME}=([0-9]+)$")
        set(A_SHARDS ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  if(A_SHARDS EQUAL 1)
    add_test(NAME ${A_NAME} COMMAND ${A_NAME} ${A_ARGS})
    set_tests_properties(${A_NAME} PROPERTIES LABELS "${A_LABELS}" SKIP_RETURN_CODE 77
      TIMEOUT ${A_TIMEOUT})
    if(A_ENV)
      set_tests_properties(${A_NAME} PROPERTIES ENVIRONMENT "${A_ENV}")
    endif()
    return()
  endif()
  foreach(i RANGE 1 ${A_SHARDS})
    math(EXPR index "${i} - 1")
    set(entry ${A_NAME}/${i}of${A_SHARDS})
    add_test(NAME ${entry} COMMAND ${A_NAME} ${A_ARGS})
    set_tests_properties(${entry} PROPERTIES LABELS "${A_LABELS}" SKIP_RETURN_CODE 77
      TIMEOUT ${A_TIMEOUT}
      ENVIRONMENT "GTEST_TOTAL_SHARDS=${A_SHARDS};GTEST_SHARD_INDEX=${index};${A_ENV}")
  endforeach()
endfunction()

# A libFuzzer target, also buildable by OSS-Fuzz/ClusterFuzzLite: when LIB_FUZZING_ENGINE is
# set in the environment, it is used as the link flag instead of -fsanitize=fuzzer.
if(LANEDIFF_FUZZERS)
  add_custom_target(lanediff_fuzzers)  # builds every fuzz target: cmake --build B --target lanediff_fuzzers
endif()

function(lanediff_fuzzer)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  if(NOT LANEDIFF_FUZZERS)
    return()
  endif()
  add_executable(${A_NAME} ${A_SRCS})
  add_dependencies(lanediff_fuzzers ${A_NAME})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  if(DEFINED ENV{LIB_FUZZING_ENGINE})
    target_link_options(${A_NAME} PRIVATE $ENV{LIB_FUZZING_ENGINE})
  else()
    target_compile_options(${A_NAME} PRIVATE -fsanitize=fuzzer)
    target_link_options(${A_NAME} PRIVATE -fsanitize=fuzzer)
  endif()
endfunction()
