# Compile settings shared by everything built against LLVM/Clang headers: the
# analysis library, the clang-tidy plugin and the library's unit tests.
function(interop_use_llvm_headers target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS}
    # clang-tidy's own headers (ClangTidyCheck.h, utils/) live here.
    ${LLVM_INCLUDE_DIRS}/clang-tidy)
  separate_arguments(llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_definitions(${target} PUBLIC ${llvm_defs})
  # Debian's LLVM is built with RTTI and without exceptions: never throw
  # through LLVM frames.
  target_compile_options(${target} PUBLIC -fno-exceptions)
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PUBLIC -fno-rtti)
  endif()
endfunction()
