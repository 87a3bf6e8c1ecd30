//===--- ArrayDeviceContainers.h - elements, algorithms, searches -*- C++
//-*-===//
//
// What the array/device model knows of containers of devices and arrays
// beyond "a range":
//
//   - an element read through the same subscript (`v[i]`, `v.at(i)` of a
//     standard container, `i` a variable) with no write to `i` between (`++i`,
//     an assignment) is the same object, so a guard on one read covers the
//     next; a non-const access may be written and alias any other index, so
//     it drops the other cached elements of the container;
//   - `std::all_of`, `std::none_of`, `std::any_of` over `[C.begin(),
//     C.end())` prove, under their result, what their predicate proves of
//     its argument for every element of C (`single`, `addressable`);
//   - a `std::optional` of a device or an array is a range of at most one
//     element: empty when default-constructed, reset or given
//     `std::nullopt`, and holding a value's facts once given one;
//   - a range-for variable, `*it`, `it->` and every other call on a range
//     give an element or a derived range (ArrayDeviceObjects.h);
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

/// `*it`, `it->`, `*ptr` on a range: cached per range object, so repeated
/// dereferences see the same element until the iterator or pointer changes.
void transferRangeDeref(const CallExpr *CE, State &S);
/// Any other call on a range: element access (devs[3], at, front), derived
/// ranges (begin, subspan), size(); other mutations forget its facts.
void transferRangeCall(const CallExpr *CE, State &S);
/// `for (const Device &d : devices())`: the loop variable is an element of
/// the range, whatever the iterator type (pointers lose their pointee at the
/// loop head, so the rule keys on the declaration instead).
void transferRangeForVar(const ApiModel &M, const VarDecl *LoopVar,
                         const VarDecl *RangeVar, State &S);

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

/// `std::optional<T> o;`, `o = std::nullopt`, `o.reset()` (empty), and
/// `std::optional<T> o = a;`, `o = a`, `o.emplace(a)` (holding `a`), T a
/// device or an array: an optional is a range of at most one element, so
/// an empty one proves of "every element" whatever is asked, and one
/// holding `a` has `a`'s facts. `o ? *o : b` is then proven when `a` and
/// `b` are.
/// `o.has_value()` and `o.operator bool()` read whether it holds a value
/// (kEngaged), so the path where `*o` is taken is the one where it does.
bool changesOptionalContents(const ApiModel &M, const Stmt &St);
void transferOptionalContents(const Stmt *St, State &S);
/// `if (o)`, `o ? *o : a`: the contextual conversion carries the test's
/// value (the framework gives a user-defined conversion none).
bool isOptionalTestConversion(const ApiModel &M, const ImplicitCastExpr &ICE);
void transferOptionalTestConversion(const ImplicitCastExpr *ICE, State &S);
/// Whether T is a std::optional of a device or an array (it then has
/// kEngaged).
bool isOptionalOfElement(const ApiModel &M, QualType T);

/// A call of one of the standard algorithms above.
bool isStdContainerAlgorithm(const CallExpr &CE);
void transferStdContainerAlgorithm(const CallExpr *CE, State &S);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICECONTAINERS_H
