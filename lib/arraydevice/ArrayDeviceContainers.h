//===--- ArrayDeviceContainers.h - elements, algorithms, searches -*- C++
//-*-===//
//
// What the array/device model knows of containers of devices and arrays
// beyond "a range" (issue 14, capability 3):
//
//   - an element read through the same subscript (`v[i]`, `v.at(i)` of a
//     standard container, `i` a variable) with no write to `i` between (`++i`,
//     an assignment) is the same object, so a guard on one read covers the
//     next; a non-const access may be written and alias any other index, so
//     it drops the other cached elements of the container;
//   - `std::all_of`, `std::none_of`, `std::any_of` over `[C.begin(),
//     C.end())` prove, under their result, what their predicate proves of
//     its argument for every element of C (`single`, `addressable`);
//   - `std::find_if`, `std::find_if_not`, `std::find` return a position in
//     the searched list: the element keeps the list's provenance (a device
//     of every process stays one) and what is proven of every element, and
//     for find_if / find_if_not what the predicate proves of a match.
//
// The algorithms are read by the C++ standard's contract of those `std::`
// functions; what a predicate proves comes from its body
// (HelperSummaries::ofPredicate), never from its name.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICECONTAINERS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICECONTAINERS_H

#include "lib/arraydevice/ArrayDeviceState.h"

namespace clang::interop::arraydevice {

/// Whether the fact \p V of every element of a range holds here: a literal
/// true, or what the path proves. One solver query for a formula.
bool provenForEveryElement(const BoolValue &V, Environment &Env);

/// `v[i]` / `v.at(i)` on a device or array range, returning a reference to
/// an element, with an integer variable as the index.
bool isIndexedElementAccess(const ApiModel &M, const CallExpr &CE);
void transferIndexedElement(const CallExpr *CE, State &S);

/// `++i`, `i = j`, `i += 2`: the integer variable written, whose cached
/// elements are dropped (transferIndexWrite); null for other statements.
const VarDecl *writtenIndexVariable(const Stmt &St);
void transferIndexWrite(const Stmt *St, State &S);

/// `v[i] = b`, `v[i].mutate()`: an element read through a subscript is
/// written, so what was proven of every element of its container (after
/// `all_of`, say) no longer holds.
void elementWritten(const StorageLocation &Elem, State &S);

/// A call of one of the standard algorithms above.
bool isStdContainerAlgorithm(const CallExpr &CE);
void transferStdContainerAlgorithm(const CallExpr *CE, State &S);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICECONTAINERS_H
