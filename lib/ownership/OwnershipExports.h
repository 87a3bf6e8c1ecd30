//===--- OwnershipExports.h - one export per import -------------*- C++ -*-===//
//
// The ownership model's part for a consumer's `__dlpack__` calls
// (lib/abi/ProducerExports.h): each call has a ghost, "the capsule it
// returned is still unused", set when the call returns one (for the C API,
// on the paths where its result is not NULL), cleared when the capsule is
// passed on and when the producer variable is given a new object. A
// `__dlpack__` call on a producer while the ghost of an earlier call on it
// may hold asks for the data again and drops the first capsule.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPEXPORTS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPEXPORTS_H

#include "lib/ownership/OwnershipEvents.h"
#include "lib/ownership/OwnershipSites.h"

#include "llvm/ADT/SmallVector.h"

namespace clang::interop::ownership {

/// Makes the ghosts of RC's export calls.
void makeExportGhosts(RunContext &RC, Environment &Env, ASTContext &Ctx);

/// Sets them on entry: no capsule asked for yet.
void initialiseExportGhosts(const RunContext &RC, Environment &Env);

/// A call: an export sets its ghost; `obj = other` forgets the exports of
/// obj.
void transferExportCall(const CallExpr &Call, Environment &Env,
                        RunContext &RC);

/// The producer variable V holds a new object (declared again, assigned):
/// its earlier capsules were asked of another object.
void forgetExports(const ValueDecl *V, Environment &Env, const RunContext &RC);

/// A reference to a holder that passes its capsule on: that capsule is
/// used.
void transferExportUse(const DeclRefExpr &Ref, Environment &Env,
                       const RunContext &RC);

/// At Call, in the state before it: an export while an earlier capsule of
/// the same producer may be unused.
void judgeRepeatedExport(const CallExpr &Call, const Environment &Env,
                         const RunContext &RC,
                         llvm::SmallVectorImpl<OwnershipEvent> &Found);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPEXPORTS_H
