# Instrumented builds, as one INTERFACE target that mcptriage_lib links PUBLIC (so the tool, the
# tests and the fuzz targets all get the same flags). Also the clang 14 <expected> shim.
#
#   MCPTRIAGE_SANITIZE  ASan + UBSan (g++ or clang); scripts/test-sanitized builds build-asan with it.
#   MCPTRIAGE_FUZZ      clang only: coverage instrumentation for libFuzzer plus ASan + UBSan, and
#                       the targets in fuzz/ (fuzz/run.sh builds build-fuzz with it).
add_library(mcptriage_sanitizers INTERFACE)

if(MCPTRIAGE_SANITIZE OR MCPTRIAGE_FUZZ)
  # UBSan findings abort (and so fail a test or stop a fuzz run) instead of printing and going on.
  set(_mcptriage_san -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  target_compile_options(mcptriage_sanitizers INTERFACE ${_mcptriage_san} -fno-omit-frame-pointer)
  target_link_options(mcptriage_sanitizers INTERFACE ${_mcptriage_san})
endif()

if(MCPTRIAGE_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MCPTRIAGE_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  target_compile_options(mcptriage_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
endif()

# libstdc++ 12 hides <expected> from clang before 16 (no P0848, conditionally trivial special
# members): fuzz/compat supplies std::expected there, so clang 14 builds (fuzz or sanitizer) work.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
  target_compile_options(mcptriage_sanitizers INTERFACE
    -include ${PROJECT_SOURCE_DIR}/fuzz/compat/expected_shim.hpp)
endif()
