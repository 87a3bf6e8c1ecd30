# Refuses, at configure time, a C++ compiler whose ABI differs from the one
# of the clang-tidy the plugin loads into. Such a plugin compiles and links;
# clang-tidy then rejects it with an undefined symbol, at load time or (lazy
# binding) at the first call, in the middle of a run. GCC 12 is one: it
# mangles std::is_integral_v<T> in the return type of LLVM 22's
# ClangTidyCheck::OptionsView::get<bool> without its std:: scope, so every
# check with a bool option references a symbol clang-tidy-22 does not have.
#
# The probe compiles cmake/plugin-probe.cpp with the plugin's flags and loads
# it with LD_BIND_NOW=1 (every symbol bound at load). The result is cached
# per compiler, clang-tidy and flags. Included by checks/CMakeLists.txt.
function(interop_probe_plugin_abi)
  set(key "${CMAKE_CXX_COMPILER}|${CMAKE_CXX_COMPILER_VERSION}|${CMAKE_CXX_FLAGS}|${INTEROP_CLANG_TIDY}|${LLVM_PACKAGE_VERSION}")
  if(INTEROP_PLUGIN_PROBE_OK STREQUAL key)
    return()
  endif()
  set(dir ${PROJECT_BINARY_DIR}/CMakeFiles/interop-plugin-probe)
  file(MAKE_DIRECTORY ${dir})
  separate_arguments(flags NATIVE_COMMAND "${CMAKE_CXX_FLAGS}")
  separate_arguments(defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  set(includes "")
  foreach(inc IN LISTS LLVM_INCLUDE_DIRS CLANG_INCLUDE_DIRS)
    list(APPEND includes -isystem ${inc})
  endforeach()
  list(APPEND includes -isystem ${LLVM_INCLUDE_DIRS}/clang-tidy)
  set(rtti "")
  if(NOT LLVM_ENABLE_RTTI)
    set(rtti -fno-rtti)
  endif()
  message(STATUS "interop-tidy: probing ${CMAKE_CXX_COMPILER_ID} "
                 "${CMAKE_CXX_COMPILER_VERSION} plugins in ${INTEROP_CLANG_TIDY}")
  execute_process(
    COMMAND ${CMAKE_CXX_COMPILER} ${flags} -std=c++17 -fPIC -shared
            -fno-exceptions ${rtti} ${defs} ${includes}
            ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/plugin-probe.cpp
            -o ${dir}/probe.so
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "interop-tidy: ${CMAKE_CXX_COMPILER} cannot compile "
                        "a minimal clang-tidy plugin:\n${out}")
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env LD_BIND_NOW=1
            ${INTEROP_CLANG_TIDY} --load=${dir}/probe.so
            --checks=-*,interopprobe-* --list-checks
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "interopprobe-abi")
    set(clang clang-${LLVM_VERSION_MAJOR})
    set(clangxx clang++-${LLVM_VERSION_MAJOR})
    if(EXISTS ${LLVM_TOOLS_BINARY_DIR}/clang++)
      set(clang ${LLVM_TOOLS_BINARY_DIR}/clang)
      set(clangxx ${LLVM_TOOLS_BINARY_DIR}/clang++)
    endif()
    string(STRIP "${err}" err)
    message(FATAL_ERROR
      "interop-tidy: a clang-tidy plugin built with ${CMAKE_CXX_COMPILER} "
      "(${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}) does not load "
      "into ${INTEROP_CLANG_TIDY} (LLVM ${LLVM_PACKAGE_VERSION}):\n"
      "  ${err}\n"
      "The plugin must be compiled with the C++ ABI of the clang-tidy it "
      "loads into. Configure a new build folder with LLVM "
      "${LLVM_VERSION_MAJOR}'s compiler:\n"
      "  cmake -S . -B build -DCMAKE_C_COMPILER=${clang} "
      "-DCMAKE_CXX_COMPILER=${clangxx}\n"
      "(tools/setup.sh does), or build only the runtime, which any C++17 "
      "compiler can, with -DINTEROP_RUNTIME_ONLY=ON.")
  endif()
  set(INTEROP_PLUGIN_PROBE_OK "${key}" CACHE INTERNAL
      "Compiler, flags and clang-tidy that the plugin ABI probe accepted")
endfunction()
