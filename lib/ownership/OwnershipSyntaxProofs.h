//===--- OwnershipSyntaxProofs.h - no event, by syntax ----------*- C++ -*-===//
//
// The syntactic proof of the ownership family: a function that is no
// capsule destructor, touches no capsule and owns no tensor (every site is
// one it only releases) can only release a tensor twice, or after a
// hand-off that follows the release; neither can happen when every release
// (a deleter call, free(), delete) ends the function. Such a function has
// no ownership event, and the flow analysis does not run.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H

#include "lib/ownership/OwnershipSites.h"

#include "clang/AST/Decl.h"

namespace clang::interop::ownership {

/// True when the syntax of FD proves it has no ownership event (RC: its
/// sites and capsules, and its role).
bool provesNoOwnershipEvent(const RunContext &RC, const FunctionDecl &FD);

/// True when no path of FD can release a tensor after releasing one
/// (Releases: what counts as a release function).
bool releasesOnlyAtExit(const FunctionDecl &FD, ReleaseFunctions &Releases);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H
