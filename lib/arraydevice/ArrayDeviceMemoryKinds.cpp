//===--- ArrayDeviceMemoryKinds.cpp - which memory an array is in ---------===//

#include "lib/arraydevice/ArrayDeviceMemoryKinds.h"

#include "lib/support/AstHelpers.h"

#include "clang/Analysis/FlowSensitive/Formula.h"

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

BoolValue &deviceMemOf(const ApiModel &M, const Expr *Arg, Environment &Env) {
  if (!M.namesDeviceMemory())
    return Env.makeAtomicBoolValue();
  return enumeratorFact(
      Arg, Env,
      [&](const EnumConstantDecl *E) { return M.isDeviceMemoryKind(E); },
      kIsDeviceMem);
}

void linkDeviceMemory(const ApiModel &M, const EnumConstantDecl *E,
                      const RecordStorageLocation *Owner, Value &V,
                      Environment &Env) {
  if (!M.namesDeviceMemory())
    return;
  if (E) {
    V.setProperty(kIsDeviceMem,
                  Env.getBoolLiteralValue(M.isDeviceMemoryKind(E)));
    return;
  }
  if (BoolValue *D = getBool(Owner, kDeviceMem, Env))
    V.setProperty(kIsDeviceMem, *D);
}

void compareDeviceMemory(const ApiModel &M, const Value &V,
                         const EnumConstantDecl *E, const Formula &Eq,
                         Environment &Env) {
  auto *D = dyn_cast_or_null<BoolValue>(V.getProperty(kIsDeviceMem));
  if (!D)
    return;
  Arena &A = Env.arena();
  if (M.isDeviceMemoryKind(E))
    Env.assume(A.makeEquals(Eq, D->formula()));
  else
    Env.assume(A.makeImplies(Eq, A.makeNot(D->formula())));
}

} // namespace clang::interop::arraydevice
