//===--- LLVMCompat.h - one source tree for LLVM 19 and 22 ------*- C++ -*-===//
//
// Every difference between the LLVM majors interop-tidy builds against
// (INTEROP_LLVM_MAJOR: 19 or 22) lives here and in LLVMCompat.cpp, as small
// wrappers keyed on LLVM_VERSION_MAJOR. Files elsewhere in lib/ and checks/
// call the wrapper and never test the version themselves. Each section names
// the API, the major that has it, and what the older one does instead.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_LLVMCOMPAT_H
#define INTEROP_LIB_SUPPORT_LLVMCOMPAT_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"

#include <initializer_list>

#if LLVM_VERSION_MAJOR < 19
#error "interop-tidy builds against LLVM 19 or later"
#endif

// ClangTidyModuleRegistry: LLVM 22 declares it in ClangTidyModule.h and
// deprecates ClangTidyModuleRegistry.h (removed in 24); LLVM 19 declares it
// only there.
#if LLVM_VERSION_MAJOR < 22
#include "ClangTidyModuleRegistry.h"
#endif

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"

namespace clang::interop::compat {

//===----------------------------------------------------------------------===//
// llvm::StringSwitch::Cases
//===----------------------------------------------------------------------===//

// LLVM 22 takes the cases of one value as an initializer list and deprecates
// the 2-to-10-argument overloads; LLVM 19 has only those. StringSwitch adds
// the initializer-list form to LLVM 19's class; Case and Cases return the
// derived class so a chain keeps it.
#if LLVM_VERSION_MAJOR >= 22
template <typename T, typename R = T>
using StringSwitch = llvm::StringSwitch<T, R>;
#else
template <typename T, typename R = T>
class StringSwitch : public llvm::StringSwitch<T, R> {
  using Base = llvm::StringSwitch<T, R>;

public:
  explicit StringSwitch(llvm::StringRef S) : Base(S) {}

  StringSwitch &Case(llvm::StringLiteral S, T Value) {
    Base::Case(S, std::move(Value));
    return *this;
  }
  StringSwitch &Cases(std::initializer_list<llvm::StringLiteral> Strings,
                      T Value) {
    for (llvm::StringLiteral S : Strings)
      Base::Case(S, Value);
    return *this;
  }
};
#endif

//===----------------------------------------------------------------------===//
// Dataflow: smart-pointer-like accessors
//===----------------------------------------------------------------------===//

// The `operator*` that stands for every dereference of CE's class (`*p` and
// `p->` see one object): its first const, parameterless operator* returning a
// reference; null when it has none or CE calls no method. LLVM 22 provides
// it as dataflow::getCanonicalSmartPointerLikeOperatorCallee
// (SmartPointerAccessorCaching.h, which LLVM 19 lacks); for 19,
// LLVMCompat.cpp looks for the operator itself.
const FunctionDecl *canonicalSmartPointerLikeOperatorCallee(const CallExpr *CE);

//===----------------------------------------------------------------------===//
// What the AST keeps of code that did not compile
//===----------------------------------------------------------------------===//

// A misspelt member (`t->strdes` for `t->strides`): clang 22 reports it and
// leaves a RecoveryExpr that containsErrors(); clang 19 reports it and builds
// the corrected member expression, which looks like valid code. So on 19
// only the compile-error recorder (engine/JudgedFunctions) skips such a
// function; the AST alone does not tell.
inline constexpr bool kASTMarksCorrectedTypos = LLVM_VERSION_MAJOR >= 22;

//===----------------------------------------------------------------------===//
// The type of a record declaration
//===----------------------------------------------------------------------===//

// LLVM 22 names it ASTContext::getCanonicalTagType (its tag types were
// reworked); LLVM 19 has getRecordType.
inline QualType recordType(ASTContext &Ctx, const RecordDecl *RD) {
#if LLVM_VERSION_MAJOR >= 22
  return Ctx.getCanonicalTagType(RD);
#else
  return Ctx.getRecordType(RD);
#endif
}

} // namespace clang::interop::compat

#endif // INTEROP_LIB_SUPPORT_LLVMCOMPAT_H
