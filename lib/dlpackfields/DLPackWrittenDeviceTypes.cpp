//===--- DLPackWrittenDeviceTypes.cpp - device types a function sets ------===//

#include "lib/dlpackfields/DLPackWrittenDeviceTypes.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"

#include <string>

namespace clang::interop::dlpackfield {

using namespace clang::dataflow;

namespace {

/// The property saying "the function wrote the constant K here".
constexpr llvm::StringLiteral kWrittenPrefix = "interop.dt.set.";

void record(StorageLocation *Loc, std::int64_t K, const Expr *Site,
            Environment &Env, RunContext &RC) {
  if (!Loc)
    return;
  // The write made the field's value the function's own (kLocal); make one
  // if the field had none.
  Value *V = Env.getValue(*Loc);
  if (!V || !isLocal(V)) {
    V = Env.createValue(Loc->getType());
    if (!V)
      return;
    V->setProperty(kLocal, Env.getBoolLiteralValue(true));
    Env.setValue(*Loc, *V);
  }
  V->setProperty((kWrittenPrefix + std::to_string(K)).str(),
                 Env.getBoolLiteralValue(true));
  RC.AtomSite[V] = Site;
}

/// `&p.device_type` for a parameter p: the parameter.
const ParmVarDecl *deviceTypeOfParam(const Expr *E) {
  const auto *UO =
      dyn_cast_or_null<UnaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME = dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParens());
  if (!ME || dlpackFieldOfMember(ME) != DLPackField::DeviceType)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

/// `&p` for a parameter p.
const ParmVarDecl *addressOfParam(const Expr *E) {
  const auto *UO =
      dyn_cast_or_null<UnaryOperator>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  return DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
}

/// A body that is one memcpy of its second parameter into its first
/// parameter's device_type (the runtime's set_device_type).
bool writesDeviceTypeFromBody(const FunctionDecl &FD) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Body || Body->size() != 1 || FD.getNumParams() != 2 ||
      classifyDLPackType(FD.getParamDecl(0)->getType().getNonReferenceType()) !=
          DLPackRecord::Device)
    return false;
  const auto *Copy = dyn_cast<CallExpr>(*Body->body_begin());
  if (!Copy || Copy->getNumArgs() != 3)
    return false;
  unsigned ID = Copy->getBuiltinCallee();
  if (ID != Builtin::BI__builtin_memcpy && ID != Builtin::BImemcpy)
    return false;
  return deviceTypeOfParam(Copy->getArg(0)) == FD.getParamDecl(0) &&
         addressOfParam(Copy->getArg(1)) == FD.getParamDecl(1);
}

} // namespace

void noteWrittenDeviceType(const Expr *LHS, const Expr *RHS, const Expr *Site,
                           Environment &Env, RunContext &RC, ASTContext &Ctx) {
  const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  if (!ME)
    return;
  DLPackField F = dlpackFieldOfMember(ME);
  if (F == DLPackField::DeviceType) {
    if (std::optional<llvm::APSInt> K = integerConstant(underCopies(RHS), Ctx))
      record(Env.getStorageLocation(*ME), K->getExtValue(), Site, Env, RC);
    return;
  }
  if (F != DLPackField::Device)
    return;
  const auto *Init = dyn_cast_or_null<InitListExpr>(underCopies(RHS));
  if (!Init || Init->getNumInits() < 1)
    return;
  std::optional<llvm::APSInt> K = integerConstant(Init->getInit(0), Ctx);
  if (!K)
    return;
  auto *Dev =
      dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*ME));
  record(deviceTypeLoc(Dev), K->getExtValue(), Site, Env, RC);
}

bool noteDeviceTypeWriterCall(const CallExpr &Call, Environment &Env,
                              RunContext &RC, ASTContext &Ctx) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || Call.getNumArgs() != 2)
    return false;
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !writesDeviceTypeFromBody(*Def))
    return false;
  // The argument is written, as the left side of an assignment is: the
  // versioned tensor it belongs to is being filled in, not read.
  markWriteChain(Call.getArg(0), RC);
  auto *Dev = dyn_cast_or_null<RecordStorageLocation>(
      Env.getStorageLocation(*Call.getArg(0)->IgnoreParenImpCasts()));
  StorageLocation *Loc = deviceTypeLoc(Dev);
  if (!Loc)
    return true;
  std::optional<llvm::APSInt> K = integerConstant(Call.getArg(1), Ctx);
  if (!K) {
    // Another value written: the function's own, unknown.
    if (Value *V = Env.createValue(Loc->getType())) {
      V->setProperty(kLocal, Env.getBoolLiteralValue(true));
      Env.setValue(*Loc, *V);
    }
    return true;
  }
  record(Loc, K->getExtValue(), &Call, Env, RC);
  return true;
}

std::optional<std::int64_t> writtenDeviceType(const Value &DT,
                                              const Environment &Env,
                                              const RunContext &RC,
                                              const Expr **Site) {
  for (const auto &P : DT.properties()) {
    llvm::StringRef Key = P.getKey();
    if (!Key.consume_front(kWrittenPrefix))
      continue;
    std::int64_t Raw;
    if (Key.getAsInteger(10, Raw))
      continue;
    if (Site)
      *Site = RC.AtomSite.lookup(&DT);
    return Raw;
  }
  return std::nullopt;
}

} // namespace clang::interop::dlpackfield
