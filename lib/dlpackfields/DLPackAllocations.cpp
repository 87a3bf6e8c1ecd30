//===--- DLPackAllocations.cpp - tensors a call allocates here ------------===//

#include "lib/dlpackfields/DLPackAllocations.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/engine/CallResults.h"

#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop::dlpackfield {

using namespace clang::dataflow;

namespace {

/// The DLDevice record Arg is (by reference or by value), or null.
RecordStorageLocation *deviceRecordOf(const Expr *Arg, Environment &Env) {
  if (classifyDLPackType(Arg->getType().getNonReferenceType()) !=
      DLPackRecord::Device)
    return nullptr;
  if (Arg->isGLValue())
    return dyn_cast_or_null<RecordStorageLocation>(
        Env.getStorageLocation(*Arg));
  return Arg->getType()->isRecordType() ? &Env.getResultObjectLocation(*Arg)
                                        : nullptr;
}

} // namespace

bool allocatedOnDevice(const CallExpr *E, FieldState &S) {
  const CXXRecordDecl *Handle =
      E->isPRValue() ? E->getType()->getAsCXXRecordDecl() : nullptr;
  CallResultScope *Scope = CallResultScope::current();
  if (!Handle || !Handle->hasDefinition() || !Scope)
    return false;
  RecordStorageLocation *Given = nullptr;
  for (const Expr *Arg : E->arguments()) {
    Given = deviceRecordOf(Arg, S.Env);
    if (Given)
      break;
  }
  if (!Given)
    return false;
  llvm::SmallVector<const CXXMethodDecl *, 2> Accessors;
  for (const CXXMethodDecl *M : Handle->methods())
    if (M->getOverloadedOperator() == OO_Arrow &&
        M->getReturnType()->isPointerType() &&
        classifyDLPackType(M->getReturnType()->getPointeeType()) ==
            DLPackRecord::Tensor)
      Accessors.push_back(M);
  if (Accessors.empty())
    return false;
  QualType TensorType =
      Accessors.front()->getReturnType()->getPointeeType().getUnqualifiedType();
  auto &Tensor = cast<RecordStorageLocation>(S.Env.createObject(TensorType));
  StorageLocation *From = deviceTypeLoc(Given);
  StorageLocation *To =
      deviceTypeLoc(childRecordOf(&Tensor, DLPackField::Device));
  Value *Type = From ? S.RC.Joins.valueAt(*From, S.Env) : nullptr;
  if (To && Type)
    S.Env.setValue(*To, *Type);
  S.RC.Allocated[&Tensor] = Type;
  auto &Pointer = S.Env.create<PointerValue>(Tensor);
  RecordStorageLocation &Made = S.Env.getResultObjectLocation(*E);
  for (const CXXMethodDecl *M : Accessors)
    Scope->slot(Made, *M->getCanonicalDecl()) = &Pointer;
  return true;
}

} // namespace clang::interop::dlpackfield
