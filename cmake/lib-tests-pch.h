// The headers precompiled for lib_tests (test/lib/CMakeLists.txt): those of
// lib/ (llvm-pch.h), plus what the unit tests add, GoogleTest and the clang
// tooling API that parses their snippets. lib_tests is an executable with
// flags of its own, so it builds its own precompiled header.
#include "llvm-pch.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"
