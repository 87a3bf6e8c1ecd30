//===--- LanguageBridge.h - C and Objective-C++ for the flow ----*- C++ -*-===//
//
// clang's dataflow framework refuses any function that is not plain C++
// ("Can only analyze C++"): a C translation unit (NumPy's, libCEED's and
// RedisAI's DLPack bridges are C) and an Objective-C++ one (an Apple
// producer's .mm) were skipped whole. What the refusal protects is the shape
// of the AST its transfer functions expect, and in the code the families
// judge only one shape differs in a way that matters: C tests a pointer or
// an integer for truth with no bool conversion (`if (p)`, `!t->strides`,
// `while (n)`), where C++ has an implicit `PointerToBoolean` or
// `IntegralToBoolean` cast. The framework then finds a pointer or an integer
// where it needs a boolean to branch on, and dereferences a null one.
//
// So the engine does two things, for every family at once:
//   - LanguageWindow lets the framework take such a function, by presenting
//     the translation unit as C++ while it builds the CFG;
//   - settleTruthOperand gives each operand C tests for truth a boolean
//     value (after each element, through lib/engine/AnalysisBridge.h): the
//     family's own (truthOfOperand, the same answer it gives for C++'s
//     conversion of that operand), else a fresh atom, so every branch has a
//     condition and the family's facts (a NULL test of strides, of the
//     deleter) reach both edges.
// Anything else C or Objective-C does (records assigned by value, message
// sends) is either modelled by the framework as in C++ or left without a
// value, which the families treat as unknown, but for one construct: a
// brace initializer of a C struct (`DLDataType dt = {kDLFloat, 32, 1};`,
// `(DLDevice){kDLCPU, 0}`). The framework initialises records from a brace
// list through their C++ class, which a C struct does not have, and crashes.
// The common one, a local declared with constants (`struct S s = {0};`,
// `DLDataType dt = {.code = kDLFloat, .bits = 32, .lanes = 1};`), is set
// aside while the framework runs (ConstantInitializersAside): the local
// then starts with unknown fields, as if declared without an initializer,
// which no family reads as a fact it does not have. A function with any
// other one (a compound literal, a brace list of variables or calls) is not
// analysed (unmodelledInitializer()).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_LANGUAGEBRIDGE_H
#define INTEROP_LIB_ENGINE_LANGUAGEBRIDGE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <type_traits>
#include <utility>

namespace clang::interop {

/// While alive, the translation unit of Ctx reads as C++ without
/// Objective-C (restored on destruction); does nothing for C++. The
/// framework checks the language when it builds the CFG and nowhere else,
/// so the window spans the build only: what the families ask of the AST
/// during the run must get C's answers (in C, `(void *)0` is a null pointer
/// constant; in C++ it is not).
class LanguageWindow {
public:
  explicit LanguageWindow(ASTContext &Ctx);
  ~LanguageWindow();
  LanguageWindow(const LanguageWindow &) = delete;
  LanguageWindow &operator=(const LanguageWindow &) = delete;

  /// Whether the translation unit is not plain C++ (the window is open).
  bool open() const { return Opts != nullptr; }

private:
  LangOptions *Opts = nullptr;
  bool CPlusPlus = false;
  bool ObjC = false;
};

/// The operands C tests for truth without a conversion, in CFG: each
/// block's terminator condition and the operands of `!`, `&&`, `||` and
/// `?:`'s condition, when their type is a scalar other than bool (parens
/// stripped: they are what the CFG's elements are). AfterLastElement maps
/// each such terminator condition that is not an element of its block (so
/// no transfer ever reaches it) to the block's last element, after which it
/// must have a boolean.
struct TruthOperands {
  llvm::DenseSet<const Expr *> Operands;
  llvm::DenseMap<const Stmt *, const Expr *> AfterLastElement;
  bool empty() const { return Operands.empty() && AfterLastElement.empty(); }
};
TruthOperands truthOperands(const CFG &G);

/// The first brace initializer in FD's body whose record has no C++ class
/// (a C struct or union), which the framework cannot model; null if none.
/// Those a live ConstantInitializersAside has set aside are not in the
/// body.
const InitListExpr *unmodelledInitializer(const FunctionDecl &FD);

/// While alive, the variables FD declares with a constant initializer that
/// holds a brace list of a C struct (`struct S s = {0};`) have no
/// initializer (restored on destruction); does nothing for C++. A constant
/// initializer has no side effect and reads no variable, so the CFG loses
/// no event with it: only the values of the fields, which are then unknown.
class ConstantInitializersAside {
public:
  ConstantInitializersAside(const FunctionDecl &FD, const ASTContext &Ctx);
  ~ConstantInitializersAside();
  ConstantInitializersAside(const ConstantInitializersAside &) = delete;
  ConstantInitializersAside &
  operator=(const ConstantInitializersAside &) = delete;

private:
  llvm::SmallVector<std::pair<VarDecl *, Expr *>, 2> Aside;
};

/// The boolean an operand C tests for truth stands for: the value it has if
/// that is already a boolean, else Truth() (the family's answer, may be
/// null), else a fresh atom; set as the operand's value.
void settleTruthOperand(const Expr &E, dataflow::Environment &Env,
                        llvm::function_ref<dataflow::BoolValue *(
                            const Expr &, dataflow::Environment &)>
                            Truth);

/// Whether a family's analysis answers truthOfOperand.
template <typename AnalysisT, typename = void>
struct HasTruthOfOperand : std::false_type {};
template <typename AnalysisT>
struct HasTruthOfOperand<
    AnalysisT, std::void_t<decltype(std::declval<AnalysisT &>().truthOfOperand(
                   std::declval<const Expr &>(),
                   std::declval<dataflow::Environment &>()))>>
    : std::true_type {};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_LANGUAGEBRIDGE_H
