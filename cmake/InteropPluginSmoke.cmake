# Loads the just-built plugin into the clang-tidy it was built for, with
# every symbol bound at load (LD_BIND_NOW: lazy binding would defer an
# undefined function to its first call, in the middle of a user's run), and
# fails unless it registers interop-* checks; the broken plugin is removed.
# Run after every link of the plugin (checks/CMakeLists.txt):
#   cmake -DCLANG_TIDY=<clang-tidy> -DPLUGIN=<InteropTidy.so>
#         -DLLVM_MAJOR=<n> -P InteropPluginSmoke.cmake
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env LD_BIND_NOW=1
          ${CLANG_TIDY} --load=${PLUGIN} --checks=-*,interop-* --list-checks
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "interop-")
  file(REMOVE ${PLUGIN})
  message(FATAL_ERROR
    "${PLUGIN} does not load into ${CLANG_TIDY} (exit ${rc}):\n${err}${out}"
    "A plugin must be compiled with the C++ ABI of the clang-tidy that loads "
    "it: configure with -DCMAKE_CXX_COMPILER=clang++-${LLVM_MAJOR} "
    "(tools/setup.sh does).")
endif()
