//===--- DLPackSwitchProofs.h - proofs on switch cases ----------*- C++ -*-===//
//
// What the flow condition cannot carry: clang's dataflow framework does not
// carry a switch case into the flow condition, so the DLPack field family
// proves two facts on the CFG and the AST after the flow analysis, in its
// post-processing step: a host access inside `case kDLCPU:` of a switch over
// a device type, and an access inside `case 1:` of a switch over
// `version.major`.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKSWITCHPROOFS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKSWITCHPROOFS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace clang::interop {

/// A host access inside `case kDLCPU:` (or after a switch whose other arms
/// all leave), proven on the CFG: the access is host-safe when no path from
/// the entry reaches it without taking a host-accessible case edge of a
/// switch over a device type. The device type mapped onto a local enum of
/// the code's own counts too: `case kCPU:` of a switch over that local is a
/// host edge when the local only ever holds constants and every store of
/// kCPU is reached through host edges only (`case kDLCPU: device = kCPU;`).
class SwitchHostProof {
public:
  SwitchHostProof(const FunctionDecl &FD, ASTContext &Ctx);
  /// True when every path from the entry to S takes a host case edge.
  bool proves(const Stmt *S) const;

private:
  /// B's case successors with their constant.
  static llvm::SmallVector<std::pair<const CFGBlock *, llvm::APSInt>, 8>
  caseEdges(const CFGBlock &B, ASTContext &Ctx);

  std::unique_ptr<CFG> Cfg;
  llvm::DenseMap<const Stmt *, const CFGBlock *> StmtBlock;
  llvm::DenseSet<std::pair<const CFGBlock *, const CFGBlock *>> HostEdges;
  /// Switches over a local integer or enumeration (a mapped device type).
  llvm::SmallVector<std::pair<const CFGBlock *, const VarDecl *>, 2>
      MappedSwitches;
  bool HasDeviceSwitch = false;
};

/// The same proof for `switch (mt->version.major) { case 1: ... }`: every
/// statement from a `case 1:` label to the next label, when nothing else can
/// reach it: the label heads no chain of labels (`case 1: case 2:` and
/// `case 2: case 1:` reach it with major 2), and the statement before it
/// cannot fall through into it. Collected top-down once per function, so
/// that no parent map is built (building one costs as much as parsing the
/// translation unit again).
class SupportedMajorCases {
public:
  SupportedMajorCases(const FunctionDecl &FD, ASTContext &Ctx);
  bool contains(const Stmt *S) const { return Inside.contains(S); }

private:
  llvm::DenseSet<const Stmt *> Inside;
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKSWITCHPROOFS_H
