//===--- CallResults.cpp - what unmodelled calls return -------------------===//

#include "lib/engine/CallResults.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"

#include <optional>

namespace clang::interop {

using namespace dataflow;

Value *valueOrFresh(const Expr &E, Environment &Env) {
  if (Value *V = Env.getValue(E))
    return V;
  Value *V = Env.createValue(E.getType());
  if (V)
    Env.setValue(E, *V);
  return V;
}

bool lacksCallResult(const CallExpr &Call, const Environment &Env) {
  QualType T = Call.getType();
  return Call.isPRValue() && T->isPointerType() &&
         T->getPointeeType()->isRecordType() && !Env.getValue(Call);
}

namespace {
thread_local CallResultScope *CurrentScope = nullptr;

/// The object an accessor call reads and the accessor, when Call is one:
/// `operator->` or `operator*` of an object, or a `const` method of it
/// that takes no argument.
std::optional<std::pair<const StorageLocation *, const Decl *>>
accessorCall(const CallExpr &Call, const Environment &Env) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    if ((Op->getOperator() != OO_Arrow && Op->getOperator() != OO_Star) ||
        Op->getNumArgs() != 1 || !Op->getArg(0)->isGLValue() ||
        !Op->getCalleeDecl())
      return std::nullopt;
    if (const StorageLocation *Obj = Env.getStorageLocation(*Op->getArg(0)))
      return std::pair(Obj, Op->getCalleeDecl()->getCanonicalDecl());
    return std::nullopt;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *M = MC ? MC->getMethodDecl() : nullptr;
  if (!M || !M->isConst() || MC->getNumArgs() != 0)
    return std::nullopt;
  if (const StorageLocation *Obj = getImplicitObjectLocation(*MC, Env))
    return std::pair(Obj, M->getCanonicalDecl());
  return std::nullopt;
}
} // namespace

CallResultScope::CallResultScope() : Outer(CurrentScope) {
  CurrentScope = this;
}
CallResultScope::~CallResultScope() { CurrentScope = Outer; }
CallResultScope *CallResultScope::current() { return CurrentScope; }

Value *&CallResultScope::slot(const StorageLocation &Object,
                              const Decl &Accessor) {
  Returned &R = Results[&Object];
  for (auto &[D, V] : R)
    if (D == &Accessor)
      return V;
  R.push_back({&Accessor, nullptr});
  return R.back().second;
}

void CallResultScope::copy(const StorageLocation &From,
                           const StorageLocation &To) {
  auto It = Results.find(&From);
  if (It == Results.end() || &From == &To)
    return;
  Returned Copied = It->second;
  Results[&To] = std::move(Copied);
}

namespace {
/// The object E copies or moves from and the object it makes or assigns,
/// when E is a copy or move (construction or assignment) of a record.
std::optional<std::pair<const StorageLocation *, const StorageLocation *>>
copiedObjects(const Expr &E, const Environment &Env) {
  const Expr *Source = nullptr;
  const StorageLocation *Target = nullptr;
  if (const auto *C = dyn_cast<CXXConstructExpr>(&E)) {
    if (!C->getConstructor()->isCopyOrMoveConstructor() ||
        C->getNumArgs() == 0 || !C->getType()->isRecordType())
      return std::nullopt;
    Source = C->getArg(0);
    Target = &Env.getResultObjectLocation(*C);
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&E)) {
    const auto *M = dyn_cast_or_null<CXXMethodDecl>(Op->getCalleeDecl());
    if (Op->getOperator() != OO_Equal || Op->getNumArgs() != 2 || !M ||
        !(M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator()))
      return std::nullopt;
    Source = Op->getArg(1);
    Target = Env.getStorageLocation(*Op->getArg(0));
  } else {
    return std::nullopt;
  }
  const StorageLocation *From =
      Source->isGLValue() ? Env.getStorageLocation(*Source) : nullptr;
  if (!From || !Target)
    return std::nullopt;
  return std::pair(From, Target);
}
} // namespace

bool copiesAccessedObject(const Expr &E, const Environment &Env) {
  // Asked at every copy of every record: the cheap answer first.
  CallResultScope *Scope = CallResultScope::current();
  if (!Scope || Scope->empty())
    return false;
  auto Objects = copiedObjects(E, Env);
  return Objects && Scope->has(*Objects->first);
}

void copyCallResults(const Expr &E, Environment &Env) {
  if (auto Objects = copiedObjects(E, Env))
    CallResultScope::current()->copy(*Objects->first, *Objects->second);
}

Value *accessorResult(const StorageLocation &Object,
                      const CXXMethodDecl &Accessor, Environment &Env) {
  CallResultScope *Scope = CallResultScope::current();
  if (!Scope)
    return nullptr;
  Value *&Kept = Scope->slot(Object, *Accessor.getCanonicalDecl());
  if (!Kept)
    Kept = Env.createValue(Accessor.getReturnType());
  return Kept;
}

RecordStorageLocation *smartPointerMade(const CallExpr &Call,
                                        Environment &Env) {
  CallResultScope *Scope = CallResultScope::current();
  QualType Held = smartPointerFactoryType(Call);
  const auto *Smart = Call.getType()->getAsCXXRecordDecl();
  if (!Scope || Held.isNull() || !Held->isRecordType() || !Smart ||
      !Call.isPRValue())
    return nullptr;
  auto *Object = dyn_cast<RecordStorageLocation>(&Env.createObject(Held));
  if (!Object)
    return nullptr;
  auto &Pointer = Env.create<PointerValue>(*Object);
  RecordStorageLocation &Made = Env.getResultObjectLocation(Call);
  auto Keep = [&](const CXXRecordDecl *RD) {
    for (const CXXMethodDecl *M : RD->methods())
      if (M->isConst() && M->getNumParams() == 0 &&
          M->getReturnType()->isPointerType() &&
          (M->getOverloadedOperator() == OO_Arrow ||
           (M->getIdentifier() && M->getName() == "get")))
        Scope->slot(Made, *M->getCanonicalDecl()) = &Pointer;
    return true;
  };
  Keep(Smart);
  if (Smart->hasDefinition())
    Smart->forallBases(Keep);
  return Object;
}

void makeCallResult(const CallExpr &Call, Environment &Env) {
  CallResultScope *Scope = CallResultScope::current();
  auto Accessor = Scope ? accessorCall(Call, Env) : std::nullopt;
  if (!Accessor) {
    valueOrFresh(Call, Env);
    return;
  }
  Value *&Kept = Scope->slot(*Accessor->first, *Accessor->second);
  if (!Kept) {
    Kept = valueOrFresh(Call, Env);
    return;
  }
  Env.setValue(Call, *Kept);
  // Made on another path, the object has no field values on this one yet.
  auto *PV = dyn_cast<PointerValue>(Kept);
  auto *Obj =
      PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()) : nullptr;
  if (!Obj)
    return;
  for (const auto &[Field, Child] : Obj->children())
    if (Child && Child->getType()->isScalarType()) {
      if (!Env.getValue(*Child))
        Env.initializeFieldsWithValues(*Obj);
      return;
    }
}

} // namespace clang::interop
