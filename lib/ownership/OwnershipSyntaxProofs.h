//===--- OwnershipSyntaxProofs.h - events by syntax -------------*- C++ -*-===//
//
// The syntactic proof of the ownership family: a function that is no
// capsule destructor, touches no capsule and owns no tensor (every site is
// one it only releases) can only release a tensor twice, or after a
// hand-off that follows the release; neither can happen when every release
// (a deleter call, free(), delete) ends the function. Such a function has
// no ownership event but one: a deleter of a tensor other code made, called
// where the body never tests it, is called unchecked on every path. The
// flow analysis then does not run.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H

#include "lib/ownership/OwnershipEvents.h"
#include "lib/ownership/OwnershipSites.h"

#include "clang/AST/Decl.h"

#include <optional>
#include <vector>

namespace clang::interop::ownership {

/// FD's ownership events when its syntax decides them all (RC: its sites
/// and capsules, and its role); none when the flow analysis must run. The
/// only events syntax gives are a foreign tensor's deleter calls
/// (DeleterUnchecked) in a body that never tests that deleter.
std::optional<std::vector<OwnershipEvent>>
ownershipEventsBySyntax(const RunContext &RC, const FunctionDecl &FD);

/// True when no path of FD can release a tensor after releasing one
/// (Releases: what counts as a release function).
bool releasesOnlyAtExit(const FunctionDecl &FD, ReleaseFunctions &Releases);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H
