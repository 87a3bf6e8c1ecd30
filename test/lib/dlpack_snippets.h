//===--- dlpack_snippets.h - DLPack snippets' prelude -----------*- C++ -*-===//
//
// The DLPack model tests (the flow model's annotated snippets and the
// syntactic proofs') parse their snippets against the same mock dlpack.h of
// the 1.x ABI (both managed structs), memcpy, assert (kept by -UNDEBUG), and
// a stand-in for the runtime's importer.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_DLPACK_SNIPPETS_H
#define INTEROP_TEST_LIB_DLPACK_SNIPPETS_H

#include "lib/engine/FactCache.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace interop_test {

inline const char *const DLPackPrelude = R"cpp(#include <assert.h>
#include <dlpack/dlpack.h>
#include <string.h>
namespace interop {
struct Device {};
struct Array {};
template <class T> struct Result {};
Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target);
} // namespace interop
)cpp";

/// The compiler arguments of every DLPack snippet.
inline const std::vector<std::string> DLPackSnippetArgs = {
    "-std=c++17", "-I" INTEROP_TEST_INPUTS "/dlpack/v1", "-UNDEBUG"};

/// Code parsed as a DLPack snippet: a new translation unit, so what lib/
/// remembers of the last one is forgotten first (its ASTContext may be
/// allocated where the last one was).
inline std::unique_ptr<clang::ASTUnit> parseDLPackCode(llvm::StringRef Code) {
  clang::interop::resetFactCache();
  return clang::tooling::buildASTFromCodeWithArgs(Code, DLPackSnippetArgs,
                                                  "snippet.cpp");
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_DLPACK_SNIPPETS_H
