//===--- DLPackDeviceMapping.h - device-type maps ---------------*- C++ -*-===//
//
// A consumer maps a DLPack device type onto its own platforms with a switch
// or a table. The mapping is wrong when an unknown device type silently
// becomes a supported platform instead of an error: a `default:` that shares
// an arm (or a result) with a real case, a table subscript that inserts a
// default value, a lookup whose not-found fallback is a real platform. This
// is a purely syntactic question; the flow-sensitive facts live in
// lib/dlpackfields/DLPackFieldModel.h.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEMAPPING_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEMAPPING_H

#include "lib/support/NameLists.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace clang::interop {

struct SilentDeviceMapping {
  enum Kind {
    /// `default:` shares its arm with a case (grouped labels or
    /// fallthrough into a case).
    DefaultSharesCase,
    /// `default:` returns or assigns the same value as a case does.
    DefaultRepeatsCase,
    /// `default:` does nothing and leaves a variable at an initial value
    /// that a case also assigns.
    DefaultKeepsInitialValue,
    /// `default:` returns or assigns an enumerator of a platform enumeration
    /// (every enumerator of which is a real platform), whether a case maps
    /// to it or not.
    DefaultIsPlatform,
    /// `table[device_type]` on a map: inserts and returns a default value.
    TableSubscript,
    /// `table.lookup(device_type)`: returns a default value when missing.
    TableLookup,
    /// `it == table.end() ? fallback : it->second` (or the `if` spelling)
    /// with a fallback that is a real value, not an error.
    TableFallback,
  };
  Kind K;
  /// Where to report: the default label, the subscript, the fallback.
  const Stmt *At = nullptr;
  /// The case (or assignment, or initialiser) whose result is repeated.
  const Stmt *SameAs = nullptr;
};

/// Every silent mapping of a device type in FD's body. `PlatformEnums`, when
/// given, names the enumerations whose every enumerator is a real platform
/// (a `default:` mapping to one of them never fails).
std::vector<SilentDeviceMapping>
findSilentDeviceMappings(const FunctionDecl &FD, ASTContext &Ctx,
                         const NameList *PlatformEnums = nullptr);

/// True for expressions that signal failure rather than a value: a throw,
/// a null pointer or nullopt, `false`, a negative constant, or a call or
/// construction whose name says error/status/invalid/unsupported.
bool isErrorSignal(const Expr *E, ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEMAPPING_H
