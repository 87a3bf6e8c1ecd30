//===--- DLPackAllocations.cpp - tensors a call allocates here ------------===//

#include "lib/dlpackfields/DLPackAllocations.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
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
  std::optional<TensorHandleAllocation> Alloc = tensorHandleAllocation(*E);
  CallResultScope *Scope = CallResultScope::current();
  if (!Alloc || !Scope)
    return false;
  RecordStorageLocation *Given =
      deviceRecordOf(E->getArg(Alloc->DeviceArg), S.Env);
  if (!Given)
    return false;
  const auto &Accessors = Alloc->Accessors;
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
