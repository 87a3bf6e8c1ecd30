//===--- ArrayDeviceContainers.cpp - elements, algorithms, searches -------===//

#include "lib/arraydevice/ArrayDeviceContainers.h"

#include "lib/arraydevice/ArrayDeviceSummaries.h"
#include "lib/arraydevice/ArrayDeviceTransfer.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "llvm/ADT/StringSwitch.h"

#include <initializer_list>

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

bool provenForEveryElement(const BoolValue &V, Environment &Env) {
  const Formula &F = V.formula();
  if (F.isLiteral(true))
    return true;
  if (F.isLiteral(false))
    return false;
  return Env.proves(F);
}

namespace {

//===----------------------------------------------------------------------===//
// Element access through a subscript
//===----------------------------------------------------------------------===//

/// The index argument of `v[i]` or of a standard container's `v.at(i)`.
const Expr *indexOf(const CallExpr &CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  if (!MD || MD->isStatic())
    return nullptr;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE))
    return OCE->getOperator() == OO_Subscript && OCE->getNumArgs() == 2
               ? OCE->getArg(1)
               : nullptr;
  if (isa<CXXMemberCallExpr>(CE) && CE.getNumArgs() == 1 &&
      MD->getParent()->isInStdNamespace() && MD->getDeclName().isIdentifier() &&
      MD->getName() == "at")
    return CE.getArg(0);
  return nullptr;
}

/// The variable an index reads (`v[i]`, `v[slot]`), if it is one.
const VarDecl *indexVariable(const Expr *Idx) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Idx->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !(VD->getType()->isIntegralOrEnumerationType()))
    return nullptr;
  return VD;
}

bool isElementRole(TypeRole R) {
  return R == TypeRole::Device || R == TypeRole::Array;
}

bool isRangeRole(TypeRole R) {
  return R == TypeRole::DeviceRange || R == TypeRole::ArrayRange;
}

} // namespace

bool isIndexedElementAccess(const ApiModel &M, const CallExpr &CE) {
  const Expr *Idx = indexOf(CE);
  if (!Idx || !indexVariable(Idx))
    return false;
  const auto *MD = cast<CXXMethodDecl>(CE.getDirectCallee());
  QualType RT = MD->getReturnType();
  // A non-const subscript of a class the standard does not specify may
  // change anything; a standard container's returns an element and
  // changes nothing (its result may be written, see below).
  if (!RT->isLValueReferenceType() ||
      (!MD->isConst() && !MD->getParent()->isInStdNamespace()))
    return false;
  const Expr *R = receiverOf(CE);
  return R && isRangeRole(M.classifyPointee(R->getType())) &&
         isElementRole(M.classify(RT.getNonReferenceType()));
}

void transferIndexedElement(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  Environment &Env = S.Env;
  RecordStorageLocation *Range = receiverLoc(*CE, Env);
  const VarDecl *Var = indexVariable(indexOf(*CE));
  StorageLocation *VarLoc = Env.getStorageLocation(*Var);
  if (!Range || !VarLoc) {
    initFromRange(M, S, Range, returnedObject(*CE, S));
    return;
  }
  // The index variable names the element: the same variable, unchanged
  // (a write to it drops the entry, transferIndexWrite), the same element.
  const StorageLocation *Index = VarLoc;
  const auto *MD = cast<CXXMethodDecl>(CE->getDirectCallee());
  const FunctionDecl *Key = MD->getCanonicalDecl();
  if (!MD->isConst()) {
    // The element returned may be written, and may be any other index's:
    // keep only this one cached on the range.
    auto &Cache = S.Lattice.Accessors;
    for (auto It = Cache.begin(); It != Cache.end();) {
      const auto &[Obj, Fn, Ix] = It->first;
      if (Obj == Range && !(Fn == Key && Ix == Index))
        Cache.erase(It++);
      else
        ++It;
    }
  }
  QualType T = MD->getReturnType().getNonReferenceType();
  RecordStorageLocation &Elem = cachedAccessor(
      *Range, Key, CE, T, S,
      [&](RecordStorageLocation &Loc) { initFromRange(M, S, Range, &Loc); },
      Index);
  Env.setStorageLocation(*CE, Elem);
}

const VarDecl *writtenIndexVariable(const Stmt &St) {
  const Expr *Target = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(&St))
    Target = UO->isIncrementDecrementOp() ? UO->getSubExpr() : nullptr;
  else if (const auto *BO = dyn_cast<BinaryOperator>(&St))
    Target = BO->isAssignmentOp() ? BO->getLHS() : nullptr;
  return Target ? indexVariable(Target) : nullptr;
}

void transferIndexWrite(const Stmt *St, State &S) {
  const StorageLocation *Loc =
      S.Env.getStorageLocation(*writtenIndexVariable(*St));
  if (!Loc)
    return;
  auto &Cache = S.Lattice.Accessors;
  for (auto It = Cache.begin(); It != Cache.end();) {
    if (std::get<2>(It->first) == Loc)
      Cache.erase(It++);
    else
      ++It;
  }
}

void elementWritten(const StorageLocation &Elem, State &S) {
  llvm::SmallVector<const RecordStorageLocation *, 2> Ranges;
  for (const auto &[Key, Loc] : S.Lattice.Accessors)
    if (Loc == &Elem && std::get<2>(Key))
      if (const auto *R = dyn_cast<RecordStorageLocation>(std::get<0>(Key)))
        Ranges.push_back(R);
  for (const RecordStorageLocation *R : Ranges)
    for (llvm::StringRef F :
         {kElemSingle, kElemAddressable, kElemTpu, kElemPinned})
      forget(R, F, S.Env);
}

namespace {

//===----------------------------------------------------------------------===//
// Standard algorithms
//===----------------------------------------------------------------------===//

enum class Algorithm { None, AllOf, NoneOf, AnyOf, FindIf, FindIfNot, Find };

Algorithm algorithmOf(const CallExpr &CE) {
  const FunctionDecl *FD = CE.getDirectCallee();
  // (first, last, predicate or value): the overloads taking an execution
  // policy have four arguments and are not read.
  if (!FD || CE.getNumArgs() != 3 || !FD->isInStdNamespace() ||
      !FD->getDeclName().isIdentifier())
    return Algorithm::None;
  return llvm::StringSwitch<Algorithm>(FD->getName())
      .Case("all_of", Algorithm::AllOf)
      .Case("none_of", Algorithm::NoneOf)
      .Case("any_of", Algorithm::AnyOf)
      .Case("find_if", Algorithm::FindIf)
      .Case("find_if_not", Algorithm::FindIfNot)
      .Case("find", Algorithm::Find)
      .Default(Algorithm::None);
}

/// `C.begin()`, `C.cbegin()`, `std::begin(C)` (or the `end` forms): C.
const Expr *containerOf(const Expr *E, bool End) {
  E = E->IgnoreImplicit();
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E))
    if (CCE->getNumArgs() == 1 && CCE->getConstructor() &&
        CCE->getConstructor()->isCopyOrMoveConstructor())
      E = CCE->getArg(0)->IgnoreImplicit();
  auto Named = [&](const FunctionDecl *FD) {
    if (!FD || !FD->getDeclName().isIdentifier())
      return false;
    llvm::StringRef N = FD->getName();
    return End ? (N == "end" || N == "cend") : (N == "begin" || N == "cbegin");
  };
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E))
    return MCE->getNumArgs() == 0 && Named(MCE->getMethodDecl())
               ? MCE->getImplicitObjectArgument()
               : nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (Call->getNumArgs() == 1 && Call->getDirectCallee() &&
        Call->getDirectCallee()->isInStdNamespace() &&
        Named(Call->getDirectCallee()))
      return Call->getArg(0);
  return nullptr;
}

/// The function a predicate argument calls: a lambda's call operator, or a
/// function named directly.
const FunctionDecl *predicateOf(const Expr *P) {
  QualType T = P->getType().getNonReferenceType();
  if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
    return RD->isLambda() ? RD->getLambdaCallOperator() : nullptr;
  P = P->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(P);
      UO && UO->getOpcode() == UO_AddrOf)
    P = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(P);
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

/// The per-element facts the algorithms carry: the fact of one object and
/// the range's "of every element".
struct ElementFact {
  llvm::StringRef One, Every;
};
constexpr ElementFact kElementFacts[] = {{kSingle, kElemSingle},
                                         {kAddressable, kElemAddressable}};

/// Whether the predicate's body proves `Field` of its argument when its
/// result is `W` (or on every return).
bool predicateProves(const HelperSummary &Sum, HelperSummary::When W,
                     llvm::StringRef Field) {
  return llvm::any_of(Sum.Facts, [&](const HelperSummary::Fact &F) {
    const HelperSummary::Subject &Sub = Sum.Subjects[F.Subject];
    return Sub.Param == 0 && Sub.Fields.empty() && F.Holds &&
           F.Field == Field &&
           (F.Cond == W || F.Cond == HelperSummary::When::After);
  });
}

BoolValue &resultOf(const CallExpr &CE, Environment &Env) {
  if (auto *R = Env.get<BoolValue>(CE))
    return *R;
  BoolValue &R = Env.makeAtomicBoolValue();
  Env.setValue(CE, R);
  return R;
}

} // namespace

bool isStdContainerAlgorithm(const CallExpr &CE) {
  return algorithmOf(CE) != Algorithm::None;
}

void transferStdContainerAlgorithm(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  Environment &Env = S.Env;
  Algorithm Alg = algorithmOf(*CE);
  const HelperSummary *Sum = nullptr;
  if (Alg != Algorithm::Find && S.Ctx.Summaries)
    if (const FunctionDecl *P = predicateOf(CE->getArg(2)))
      Sum = S.Ctx.Summaries->ofPredicate(*P, M, S.AST, S.Ctx.SummaryDepth);
  switch (Alg) {
  case Algorithm::AllOf:
  case Algorithm::NoneOf:
  case Algorithm::AnyOf: {
    // all_of true, none_of true, any_of false: the predicate was called on
    // every element of [first, last) and returned true (all_of) or false.
    const Expr *First = containerOf(CE->getArg(0), /*End=*/false);
    const Expr *Last = containerOf(CE->getArg(1), /*End=*/true);
    RecordStorageLocation *C = First ? objectLoc(*First, Env) : nullptr;
    if (!Sum || !C || !Last || objectLoc(*Last, Env) != C ||
        !isRangeRole(roleOf(M, C)))
      return;
    auto W = Alg == Algorithm::AllOf ? HelperSummary::When::IfTrue
                                     : HelperSummary::When::IfFalse;
    Arena &A = Env.arena();
    const Formula &R = resultOf(*CE, Env).formula();
    const Formula &Every = Alg == Algorithm::AnyOf ? A.makeNot(R) : R;
    for (const ElementFact &F : kElementFacts)
      if (predicateProves(*Sum, W, F.One))
        if (BoolValue *All = getBool(C, F.Every, Env))
          Env.assume(A.makeImplies(Every, All->formula()));
    return;
  }
  case Algorithm::FindIf:
  case Algorithm::FindIfNot:
  case Algorithm::Find: {
    // A position in [first, last): an element of the searched range, with
    // its provenance and what holds of every element; for a search by
    // predicate, a match (dereferencing `last` is undefined, so no test
    // against it is needed). The element of a pointer result, or an
    // iterator derived from `first`.
    RecordStorageLocation *From = objectLoc(*CE->getArg(0), Env);
    RecordStorageLocation *Res = modelledObject(M, returnedObject(*CE, S), S);
    if (!Res)
      return;
    initFromRange(M, S, From, Res);
    if (!Sum)
      return;
    auto W = Alg == Algorithm::FindIf ? HelperSummary::When::IfTrue
                                      : HelperSummary::When::IfFalse;
    bool Element = isElementRole(roleOf(M, Res));
    for (const ElementFact &F : kElementFacts)
      if (predicateProves(*Sum, W, F.One))
        setBool(Res, Element ? F.One : F.Every, Env.getBoolLiteralValue(true),
                Env);
    return;
  }
  case Algorithm::None:
    return;
  }
}

} // namespace clang::interop::arraydevice
