//===--- CapsuleNames.h - what a capsule's name says ------------*- C++ -*-===//
//
// A DLPack capsule's name is its state: "dltensor" (or "dltensor_versioned")
// while the tensor is the producer's, "used_dltensor" once a consumer owns
// it. This is what an expression used as a name means (a constant, a choice
// between constants, the capsule's own name read back) and the one place a
// constant string is resolved through variables.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_CAPSULENAMES_H
#define INTEROP_LIB_ABI_CAPSULENAMES_H

#include "lib/abi/DLPackTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang::interop {

/// What a capsule name means to the DLPack protocol.
enum class CapsuleName {
  Unknown,       // not a constant string
  Null,          // NULL
  Legacy,        // "dltensor"
  Versioned,     // "dltensor_versioned"
  UsedLegacy,    // "used_dltensor"
  UsedVersioned, // "used_dltensor_versioned"
  Other,         // any other constant
  FromGetName,   // PyCapsule_GetName(...): no check at all
  // One of several constants chosen at run time (a ternary, a variable
  // assigned in both arms of an if), all of one kind:
  EitherUnconsumed, // "dltensor" or "dltensor_versioned"
  EitherUsed,       // "used_dltensor" or "used_dltensor_versioned"
};
/// What E means as a capsule name; FromGetName for the capsule's own name
/// read back (nameReadOf).
CapsuleName classifyCapsuleName(const Expr *E, ASTContext &Ctx);

/// The read of a capsule's own name that E's value is
/// (`PyCapsule_GetName(c)`, `cap.name()`), seen through a local variable
/// initialised with it, a string object made from it (`std::string name =
/// PyCapsule_GetName(c)`) and that object's `c_str()` or `data()`; null for
/// anything else.
const CallExpr *nameReadOf(const Expr *E);
inline bool isUnconsumedName(CapsuleName N) {
  return N == CapsuleName::Legacy || N == CapsuleName::Versioned ||
         N == CapsuleName::EitherUnconsumed;
}
inline bool isUsedName(CapsuleName N) {
  return N == CapsuleName::UsedLegacy || N == CapsuleName::UsedVersioned ||
         N == CapsuleName::EitherUsed;
}

/// The unconsumed capsule name for a managed-tensor generation
/// ("dltensor_versioned" for the versioned struct, "dltensor" otherwise).
llvm::StringRef capsuleNameFor(DLPackRecord ManagedTensor);
/// The spelling of an unconsumed name ("dltensor_versioned" for Versioned,
/// "dltensor" otherwise).
llvm::StringRef unconsumedNameText(CapsuleName N);
/// A capsule name a producer of DLPack tensors may have meant: it mentions
/// "dltensor" or "dlpack", in any case.
bool mentionsDLPack(llvm::StringRef CapsuleNameText);

/// Every constant string E may hold, sorted, without repeats: a literal, a
/// constexpr/const char array or pointer initialised with one, a template
/// argument, through casts; a conditional operator's arms (only the chosen
/// one when its condition is a constant); a local pointer variable's stores
/// (its initialiser and every assignment in its function, when its address
/// is never taken). None when some value E may hold is not a constant.
/// Values through variables are the same value to every family: this is the
/// one place a name, a constant or a choice between constants is resolved.
std::optional<llvm::SmallVector<std::string, 2>>
constantStrings(const Expr *E, ASTContext &Ctx);

/// The one constant string E holds (constantStrings() with one element).
std::optional<std::string> constantString(const Expr *E, ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_CAPSULENAMES_H
