//===--- ArrayDeviceContainers.cpp - elements, algorithms, searches -------===//

#include "lib/arraydevice/ArrayDeviceContainers.h"

#include "lib/arraydevice/ArrayDeviceSummaries.h"
#include "lib/arraydevice/ArrayDeviceObjects.h"

#include "lib/support/AstHelpers.h"
#include "lib/support/LLVMCompat.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "llvm/ADT/StringSwitch.h"

#include <initializer_list>

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

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
// std::optional: a range of at most one element
//===----------------------------------------------------------------------===//

/// The element role of `std::optional<E>` (E a device or an array), or None.
/// ApiModel classifies such an optional as a range by its argument; what
/// this file adds is what its constructors and mutators put in it.
TypeRole optionalElementRole(const ApiModel &M, QualType T) {
  const auto *CTSD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!CTSD || !CTSD->isInStdNamespace() ||
      !CTSD->getDeclName().isIdentifier() || CTSD->getName() != "optional" ||
      CTSD->getTemplateArgs().size() != 1 ||
      CTSD->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return TypeRole::None;
  QualType E = CTSD->getTemplateArgs()[0].getAsType();
  if (E->isPointerType())
    return TypeRole::None;
  TypeRole R = M.classify(E);
  return isElementRole(R) ? R : TypeRole::None;
}

bool isNullopt(const Expr &E) {
  const CXXRecordDecl *RD =
      E.getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getDeclName().isIdentifier() &&
         RD->getName() == "nullopt_t";
}

/// What a statement does with an optional: puts nothing in it
/// (`optional<T> o;`, `o = std::nullopt`, `o.reset()`), puts a value in it
/// (`optional<T> o = a;`, `o = a`, `o.emplace(a)`, with `a` of the element's
/// type), or tests it (`o.has_value()`, `o.operator bool()`).
struct OptionalContents {
  const Expr *Optional = nullptr; ///< The optional written (null: a
                                  ///< construction, see Construct).
  const CXXConstructExpr *Construct = nullptr;
  const Expr *Value = nullptr; ///< Null: the optional is empty.
  bool Test = false;
};

std::optional<OptionalContents> optionalContents(const ApiModel &M,
                                                 const Stmt &St) {
  auto Holds = [&](QualType Opt, const Expr *V) {
    TypeRole R = optionalElementRole(M, Opt);
    return R != TypeRole::None && !V->getType()->isPointerType() &&
           M.classify(V->getType()) == R;
  };
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(&St)) {
    if (optionalElementRole(M, CCE->getType()) == TypeRole::None)
      return std::nullopt;
    if (CCE->getNumArgs() == 0 ||
        (CCE->getNumArgs() == 1 && isNullopt(*CCE->getArg(0))))
      return OptionalContents{nullptr, CCE, nullptr};
    if (CCE->getNumArgs() == 1 && Holds(CCE->getType(), CCE->getArg(0)))
      return OptionalContents{nullptr, CCE, CCE->getArg(0)};
    return std::nullopt;
  }
  const auto *CE = dyn_cast<CallExpr>(&St);
  const auto *MD =
      CE ? dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()) : nullptr;
  const Expr *Opt = CE ? receiverOf(*CE) : nullptr;
  if (!MD || !Opt || MD->isStatic() ||
      optionalElementRole(M, MD->getThisType()->getPointeeType()) ==
          TypeRole::None)
    return std::nullopt;
  // The arguments after the object argument of an operator call.
  llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
  if (isa<CXXOperatorCallExpr>(CE))
    Args = Args.drop_front();
  QualType T = MD->getThisType()->getPointeeType();
  if (MD->getOverloadedOperator() == OO_Equal && Args.size() == 1) {
    if (isNullopt(*Args[0]))
      return OptionalContents{Opt, nullptr, nullptr};
    if (Holds(T, Args[0]))
      return OptionalContents{Opt, nullptr, Args[0]};
    return std::nullopt;
  }
  if (isa<CXXConversionDecl>(MD) && MD->getReturnType()->isBooleanType())
    return OptionalContents{Opt, nullptr, nullptr, /*Test=*/true};
  if (!MD->getDeclName().isIdentifier())
    return std::nullopt;
  if (MD->getName() == "has_value" && Args.empty())
    return OptionalContents{Opt, nullptr, nullptr, /*Test=*/true};
  if (MD->getName() == "reset" && Args.empty())
    return OptionalContents{Opt, nullptr, nullptr};
  if (MD->getName() == "emplace" && Args.size() == 1 && Holds(T, Args[0]))
    return OptionalContents{Opt, nullptr, Args[0]};
  return std::nullopt;
}

} // namespace

bool isOptionalTestConversion(const ApiModel &M, const ImplicitCastExpr &ICE) {
  if (ICE.getCastKind() != CK_UserDefinedConversion)
    return false;
  std::optional<OptionalContents> C =
      optionalContents(M, *ICE.getSubExpr()->IgnoreParens());
  return C && C->Test;
}

void transferOptionalTestConversion(const ImplicitCastExpr *ICE, State &S) {
  if (BoolValue *V = S.Env.get<BoolValue>(*ICE->getSubExpr()->IgnoreParens()))
    S.Env.setValue(*ICE, *V);
}

bool isOptionalOfElement(const ApiModel &M, QualType T) {
  return optionalElementRole(M, T) != TypeRole::None;
}

bool changesOptionalContents(const ApiModel &M, const Stmt &St) {
  return optionalContents(M, St).has_value();
}

void transferOptionalContents(const Stmt *St, State &S) {
  Environment &Env = S.Env;
  std::optional<OptionalContents> C = optionalContents(S.Model, *St);
  if (!C)
    return;
  RecordStorageLocation *Opt = C->Construct
                                   ? &Env.getResultObjectLocation(*C->Construct)
                                   : objectLoc(*C->Optional, Env);
  if (!Opt)
    return;
  if (C->Test) {
    if (BoolValue *Engaged = getBool(Opt, kEngaged, Env))
      Env.setValue(*cast<Expr>(St), *Engaged);
    return;
  }
  S.Lattice.forgetAccessors(*Opt);
  forget(Opt, kSingle, Env);
  setBool(Opt, kEngaged, Env.getBoolLiteralValue(C->Value != nullptr), Env);
  if (!C->Value) {
    // No element: whatever is said of every element holds (dereferencing
    // an empty optional is undefined, so no path through one is judged).
    BoolValue &True = Env.getBoolLiteralValue(true);
    for (llvm::StringRef F :
         {kElemSingle, kElemAddressable, kElemTpu, kElemPinned})
      if (syntheticField(Opt, F))
        setBool(Opt, F, True, Env);
    return;
  }
  // One element: the value's facts are its element's, its origin the
  // optional's.
  RecordStorageLocation *V = objectLoc(*C->Value, Env);
  for (auto [One, Every] :
       {std::pair{kSingle, kElemSingle},
        std::pair{kAddressable, kElemAddressable}, std::pair{kTpu, kElemTpu},
        std::pair{kPinned, kElemPinned}}) {
    if (!syntheticField(Opt, Every))
      continue;
    if (BoolValue *B = V ? getBool(V, One, Env) : nullptr)
      setBool(Opt, Every, *B, Env);
    else
      forget(Opt, Every, Env);
  }
  setOrigin(S, Opt, copiedOrigin(S.Lattice, V, C->Value));
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
  E = underCopies(E);
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

/// Whether the predicate's body proves `Field` of its argument (or, with
/// \p Held, of that field of its argument) when its result is `W` (or on
/// every return).
bool predicateProves(const HelperSummary &Sum, HelperSummary::When W,
                     llvm::StringRef Field, const FieldDecl *Held = nullptr) {
  return llvm::any_of(Sum.Facts, [&](const HelperSummary::Fact &F) {
    const HelperSummary::Subject &Sub = Sum.Subjects[F.Subject];
    bool Names = Held ? Sub.Fields.size() == 1 && Sub.Fields[0] == Held
                      : Sub.Fields.empty();
    return Sub.Param == 0 && Names && F.Holds && F.Field == Field &&
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
    TypeRole Role = roleOf(M, C);
    if (!Sum || !C || !Last || objectLoc(*Last, Env) != C ||
        !(isRangeRole(Role) || Role == TypeRole::HolderRange))
      return;
    auto W = Alg == Algorithm::AllOf ? HelperSummary::When::IfTrue
                                     : HelperSummary::When::IfFalse;
    Arena &A = Env.arena();
    const Formula &R = resultOf(*CE, Env).formula();
    const Formula &Every = Alg == Algorithm::AnyOf ? A.makeNot(R) : R;
    if (Role == TypeRole::HolderRange) {
      // Over records holding an array or a device: what the predicate
      // proves of a held field (`e.array.is_single_device()`), for that
      // field of every element.
      for (const FieldDecl *Held : M.heldFields(M.heldRecordOf(C->getType())))
        for (const ElementFact &F : kElementFacts)
          if (predicateProves(*Sum, W, F.One, Held))
            if (BoolValue *All = getBool(C, heldFact(F.Every, *Held), Env))
              Env.assume(A.makeImplies(Every, All->formula()));
      return;
    }
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

void transferRangeDeref(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Range = objectLoc(*CE->getArg(0), S.Env);
  if (!Range)
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  QualType RT = Callee->getReturnType();
  QualType Pointee =
      RT->isPointerType() ? RT->getPointeeType() : RT.getNonReferenceType();
  if (!Pointee->isRecordType() ||
      !(RT->isReferenceType() || RT->isPointerType())) {
    initFromRange(M, S, Range, returnedObject(*CE, S));
    return;
  }
  // * and -> share one element: key both by the canonical operator.
  const FunctionDecl *Key = compat::canonicalSmartPointerLikeOperatorCallee(CE);
  if (!Key)
    Key = Callee;
  RecordStorageLocation &Elem = cachedAccessor(
      *Range, Key->getCanonicalDecl(), CE, Pointee, S,
      [&](RecordStorageLocation &Loc) { initFromRange(M, S, Range, &Loc); });
  if (RT->isReferenceType())
    S.Env.setStorageLocation(*CE, Elem);
  else
    S.Env.setValue(*CE, S.Env.create<PointerValue>(Elem));
}

void transferRangeCall(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Range = receiverLoc(*CE, S.Env);
  if (!Range)
    return;
  QualType T = CE->getType();
  TypeRole Ret = M.classifyPointee(T);
  if (Ret != TypeRole::None) {
    initFromRange(M, S, Range, returnedObject(*CE, S));
    return;
  }
  // entries[i], entries.front(), entries.begin() of a range of holders: an
  // element, as for a range of arrays.
  if (const CXXRecordDecl *Held = M.heldRecordOf(Range->getType())) {
    QualType E =
        T->isPointerType() ? T->getPointeeType() : T.getNonReferenceType();
    if (sameRecord(E, Held)) {
      initFromRange(M, S, Range, returnedObject(*CE, S));
      return;
    }
  }
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (T->isIntegerType() && MD && MD->getDeclName().isIdentifier() &&
      MD->getName() == "size") {
    if (BoolValue *One = getBool(Range, kSingle, S.Env)) {
      Value &V = S.Env.create<IntegerValue>();
      V.setProperty(kCountIsOne, *One);
      S.Env.setValue(*CE, V);
    }
    return;
  }
  if (MD && !MD->isConst()) {
    if (roleOf(M, Range) == TypeRole::HolderRange)
      forgetHeld(*Range, S.Env);
    for (llvm::StringRef F :
         {kSingle, kElemAddressable, kElemSingle, kElemTpu, kElemPinned})
      forget(Range, F, S.Env);
    S.Lattice.forgetAccessors(*Range);
  }
}

void transferRangeForVar(const ApiModel &M, const VarDecl *LoopVar,
                         const VarDecl *RangeVar, State &S) {
  // Every range-for of the body reaches here: a C array or a loop variable
  // of scalar type has a location that is not a record's, and carries no
  // fact (asking the framework for a record location of it asserts).
  auto *Range = dyn_cast_or_null<RecordStorageLocation>(
      S.Env.getStorageLocation(*RangeVar));
  RecordStorageLocation *Elem = nullptr;
  QualType T = LoopVar->getType();
  if (T->isPointerType() && T->getPointeeType()->isRecordType()) {
    // `for (Device *d : list)`: give the variable a pointee that is the same
    // on every iteration, so its facts can be tracked and the loop converges.
    StorageLocation *VarLoc = S.Env.getStorageLocation(*LoopVar);
    if (!VarLoc)
      return;
    PointerValue &PV = stablePointer(LoopVar, T->getPointeeType(), S);
    S.Env.setValue(*VarLoc, PV);
    Elem = dyn_cast<RecordStorageLocation>(&PV.getPointeeLoc());
  } else if (T->isReferenceType() && T.getNonReferenceType()->isRecordType()) {
    // `for (const Array &a : arrays)`: bind the variable to one element
    // object per loop instead of the fresh object the iterator yields on
    // every visit, whose fresh facts would keep the loop from converging.
    Elem = &S.Ctx.Stable.get(LoopVar, T.getNonReferenceType(), S.Env,
                             /*Fresh=*/true);
    S.Env.setStorageLocation(*LoopVar, *Elem);
  } else if (T->isRecordType()) {
    Elem = S.Env.get<RecordStorageLocation>(*LoopVar);
  }
  if (Elem)
    initFromRange(M, S, Range, Elem);
}

} // namespace clang::interop::arraydevice
