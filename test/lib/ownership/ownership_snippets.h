//===--- ownership_snippets.h - ownership snippets' prelude -----*- C++ -*-===//
//
// The ownership tests parse their snippets against the mock Python.h and
// dlpack.h, producers of managed tensors and an importer that takes
// ownership.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_OWNERSHIP_OWNERSHIP_SNIPPETS_H
#define INTEROP_TEST_LIB_OWNERSHIP_OWNERSHIP_SNIPPETS_H

#include "lib/ownership/OwnershipEvents.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace interop_test {

inline const char *const OwnershipPrelude = R"cpp(#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>
struct python_error {};
struct runtime_error {
  explicit runtime_error(const char *what);
};
namespace at {
struct Tensor {};
Tensor fromDLPack(DLManagedTensor *src);
DLManagedTensor *toDLPack(const Tensor &t);
} // namespace at
namespace interop {
struct Device {};
struct Array {};
template <class T> struct Result {
  bool ok() const;
};
Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target);
} // namespace interop
struct Buffer {
  static Buffer Empty();
  static Buffer Wrap(DLManagedTensor *owner);
};
PyObject *wrap(const at::Tensor &t);
)cpp";

/// The compiler arguments of every snippet.
inline const std::vector<std::string> OwnershipArgs = {
    "-std=c++17", "-I" INTEROP_TEST_INPUTS,
    "-I" INTEROP_TEST_INPUTS "/dlpack/v1"};

inline std::unique_ptr<clang::ASTUnit>
parseOwnershipCode(llvm::StringRef Code) {
  return clang::tooling::buildASTFromCodeWithArgs(Code, OwnershipArgs,
                                                  "snippet.cpp");
}

/// A short name of each ownership event kind, for expectations.
inline const char *kindName(clang::interop::OwnershipEvent::Kind K) {
  switch (K) {
  case clang::interop::OwnershipEvent::Leak:
    return "leak";
  case clang::interop::OwnershipEvent::DoubleDelete:
    return "double-delete";
  case clang::interop::OwnershipEvent::DeleteAfterHandOff:
    return "delete-after-handoff";
  case clang::interop::OwnershipEvent::CapsulePointerUnchecked:
    return "capsule-unchecked";
  case clang::interop::OwnershipEvent::DeleterUnchecked:
    return "deleter-unchecked";
  case clang::interop::OwnershipEvent::CapsuleNameUnchecked:
    return "name-unchecked";
  case clang::interop::OwnershipEvent::RenameBeforeImport:
    return "rename-before-import";
  case clang::interop::OwnershipEvent::NotClaimedAfterImport:
    return "not-claimed";
  case clang::interop::OwnershipEvent::ThrowBeforeClaim:
    return "throw-before-claim";
  case clang::interop::OwnershipEvent::DeletedWhileCapsuleOwns:
    return "deleted-unclaimed";
  case clang::interop::OwnershipEvent::DestructorUncheckedDelete:
    return "dtor-unchecked-delete";
  case clang::interop::OwnershipEvent::DestructorClearsError:
    return "dtor-clears-error";
  case clang::interop::OwnershipEvent::DestructorRaises:
    return "dtor-raises";
  case clang::interop::OwnershipEvent::DestructorReadRaises:
    return "dtor-read-raises";
  case clang::interop::OwnershipEvent::ReturnStillOwned:
    return "return-still-owned";
  case clang::interop::OwnershipEvent::RepeatedExport:
    return "repeated-export";
  case clang::interop::OwnershipEvent::DeleterKeepsTensor:
    return "deleter-keeps-tensor";
  case clang::interop::OwnershipEvent::DataNotKeptAlive:
    return "data-not-kept-alive";
  case clang::interop::OwnershipEvent::NullDeleterExported:
    return "null-deleter-exported";
  case clang::interop::OwnershipEvent::FreedWithoutDeleter:
    return "freed-without-deleter";
  }
  return "?";
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_OWNERSHIP_OWNERSHIP_SNIPPETS_H
