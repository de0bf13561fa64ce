# One call declares a library, a test beside it, a binary or a fuzz target.
#
#   lanediff_library(NAME model_fp SRCS f32.cc u8.cc DEPS absl::status)
#   lanediff_test(NAME model_fp_test SRCS u8_test.cc DEPS model_fp [LABELS slow])
#   lanediff_fuzzer(NAME encoding_fuzzer SRCS encoding_fuzzer.cc DEPS model_isa)
#
# Tests get the CTest label "default" unless LABELS names others (slow, gpu, llvm).
# A test that exits 77 is reported as skipped (GPU tests with no GPU, for example).

set(LANEDIFF_WARNINGS -Wall -Wextra)
if(LANEDIFF_SANITIZE)
  set(LANEDIFF_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${LANEDIFF_SAN_FLAGS})
  add_link_options(${LANEDIFF_SAN_FLAGS})
endif()
if(LANEDIFF_FUZZERS)
  # Everything carries coverage instrumentation; only fuzzer executables link the driver.
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
endif()

function(_lanediff_common target)
  target_compile_options(${target} PRIVATE ${LANEDIFF_WARNINGS})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
endfunction()

function(lanediff_library)
  cmake_parse_arguments(A "" "NAME" "SRCS;DEPS" ${ARGN})
  add_library(${A_NAME} STATIC ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PUBLIC ${A_DEPS})
endfunction()

function(lanediff_binary)
  cmake_parse_arguments(A "" "NAME;OUTPUT_NAME" "SRCS;DEPS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS})
  if(A_OUTPUT_NAME)
    set_target_properties(${A_NAME} PROPERTIES OUTPUT_NAME ${A_OUTPUT_NAME})
  endif()
endfunction()

function(lanediff_test)
  cmake_parse_arguments(A "" "NAME;TIMEOUT" "SRCS;DEPS;LABELS;ARGS" ${ARGN})
  add_executable(${A_NAME} ${A_SRCS})
  _lanediff_common(${A_NAME})
  target_link_libraries(${A_NAME} PRIVATE ${A_DEPS} GTest::gtest GTest::gtest_main GTest::gmock)
  target_compile_definitions(${A_NAME} PRIVATE
    LANEDIFF_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    LANEDIFF_BINARY_DIR="${PROJECT_BINARY_DIR}"
    LANEDIFF_LLVM_BIN="${LANEDIFF_LLVM_BIN}")
  if(NOT A_LABELS)
    set(A_LABELS default)
  endif()
  if(NOT A_TIMEOUT)
    set(A_TIMEOUT 600)
  endif()
  add_test(NAME ${A_NAME} COMMAND ${A_NAME} ${A_ARGS})
  set_tests_properties(${A_NAME} PROPERTIES LABELS "${A_LABELS}" SKIP_RETURN_CODE 77 TIMEOUT ${A_TIMEOUT})
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
