//===--- OwnershipExports.cpp - one export per import ---------------------===//

#include "lib/ownership/OwnershipExports.h"

#include "lib/engine/ValueFacts.h"

#include "clang/AST/ExprCXX.h"

namespace clang::interop::ownership {

using namespace dataflow;

void makeExportGhosts(RunContext &RC, Environment &Env, ASTContext &Ctx) {
  for (unsigned I = 0; I < RC.Exports.Calls.size(); ++I)
    RC.ExportUnused.push_back(&Env.createStorageLocation(Ctx.BoolTy));
}

void initialiseExportGhosts(const RunContext &RC, Environment &Env) {
  for (StorageLocation *L : RC.ExportUnused)
    Env.setValue(*L, Env.getBoolLiteralValue(false));
}

void forgetExports(const ValueDecl *V, Environment &Env, const RunContext &RC) {
  for (auto [I, C] : llvm::enumerate(RC.Exports.Calls))
    if (C.Producer == V)
      Env.setValue(*RC.ExportUnused[I], Env.getBoolLiteralValue(false));
}

void transferExportCall(const CallExpr &Call, Environment &Env,
                        RunContext &RC) {
  if (RC.Exports.Calls.empty())
    return;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        forgetExports(DRE->getDecl(), Env, RC);
  auto It = RC.ExportOfCall.find(&Call);
  if (It == RC.ExportOfCall.end())
    return;
  const ExportCall &C = RC.Exports.Calls[It->second];
  StorageLocation &Unused = *RC.ExportUnused[It->second];
  if (C.UsedAtOnce) {
    Env.setValue(Unused, Env.getBoolLiteralValue(false));
    return;
  }
  // The C API returns NULL when the producer raised: no capsule then.
  Value *V = C.MayFail ? valueOrFresh(Call, Env) : nullptr;
  if (V && isa<PointerValue>(V)) {
    RC.ExportResults.insert(V);
    Env.setValue(Unused, Env.makeNot(nullAtomOf(*V, Env)));
    return;
  }
  Env.setValue(Unused, Env.getBoolLiteralValue(true));
}

void transferExportUse(const DeclRefExpr &Ref, Environment &Env,
                       const RunContext &RC) {
  auto It = RC.Exports.UsingReferences.find(&Ref);
  if (It == RC.Exports.UsingReferences.end())
    return;
  for (auto [I, C] : llvm::enumerate(RC.Exports.Calls))
    if (C.Holder == It->second)
      Env.setValue(*RC.ExportUnused[I], Env.getBoolLiteralValue(false));
}

void judgeRepeatedExport(const CallExpr &Call, const Environment &Env,
                         const RunContext &RC,
                         llvm::SmallVectorImpl<OwnershipEvent> &Found) {
  auto It = RC.ExportOfCall.find(&Call);
  if (It == RC.ExportOfCall.end())
    return;
  const ValueDecl *Producer = RC.Exports.Calls[It->second].Producer;
  for (auto [I, C] : llvm::enumerate(RC.Exports.Calls)) {
    if (C.Producer != Producer)
      continue;
    auto *Unused = Env.get<BoolValue>(*RC.ExportUnused[I]);
    if (!Unused || !Env.allows(Unused->formula()))
      continue;
    OwnershipEvent E{OwnershipEvent::RepeatedExport, &Call, nullptr,
                     C.Call != &Call ? C.Call : nullptr};
    E.Owner = Producer;
    Found.push_back(E);
    return;
  }
}

} // namespace clang::interop::ownership
