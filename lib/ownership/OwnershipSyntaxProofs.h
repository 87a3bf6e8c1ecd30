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

namespace clang::interop {

/// A capsule destructor's duty to the exception in flight judged by syntax,
/// for C, where the flow analysis cannot run: each PyErr_Clear or raising
/// call (raisesPythonError) of FD's body with no PyErr_Fetch or
/// PyErr_GetRaisedException before it in the body since the last restore,
/// as DestructorClearsError and DestructorRaises events in source order
/// (not path-sensitive: a save on one branch counts for what follows).
std::vector<OwnershipEvent>
destructorErrorEventsBySyntax(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPSYNTAXPROOFS_H
