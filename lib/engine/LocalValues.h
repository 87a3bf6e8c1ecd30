//===--- LocalValues.h - values through variables, for every family -------===//
//
// A guard compares a tracked value with a constant: `device_type != kDLCPU`,
// `memory_kind() == MemoryKind::kPinnedHost`, `num_devices() != 1`. Code
// often names that constant through a variable first: `const int want =
// pinned ? kDLCUDAHost : kDLCPU;`, `MemoryKind kind =
// MemoryKind::kPinnedHost;`. Every family asks here which constants an
// operand can hold, instead of recognising constants only where they are
// written inline. The stores into a function's locals are scanned once per
// function and translation unit (localStoresOf), and shared by every
// reader.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_LOCALVALUES_H
#define INTEROP_LIB_ENGINE_LOCALVALUES_H

#include "lib/support/LocalStores.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace clang::interop {

/// The constant expressions E can take its value from, or nullopt when
/// some value it can hold is not a constant. E itself when it is an integer
/// or enumeration constant (a `constexpr` or `const` variable with a
/// constant initialiser included); both arms of a conditional; a local
/// variable's initialiser and every value assigned to it as a whole, when
/// nothing else can change it (no compound assignment, increment, address
/// taken or non-const reference bound to it). The choices are a union over
/// the whole function, not per path: E holds one of them wherever it is
/// read, which is all a comparison needs. At most MaxChoices of them.
std::optional<llvm::SmallVector<const Expr *, 4>>
constantChoices(const Expr *E, const ASTContext &Ctx, unsigned MaxChoices = 8);

/// The integer values of constantChoices(E), each once, in ascending
/// order.
std::optional<llvm::SmallVector<llvm::APSInt, 4>>
integerChoices(const Expr *E, const ASTContext &Ctx, unsigned MaxChoices = 8);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_LOCALVALUES_H
