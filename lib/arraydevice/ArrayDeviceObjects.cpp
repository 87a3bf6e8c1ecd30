//===--- ArrayDeviceObjects.cpp - objects made from other objects ---------===//

#include "lib/arraydevice/ArrayDeviceObjects.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

bool provenForEveryElement(const BoolValue &V, Environment &Env) {
  const Formula &F = V.formula();
  if (F.isLiteral(true))
    return true;
  if (F.isLiteral(false))
    return false;
  return Env.proves(F);
}

namespace {

/// Sets on `Elem` each fact (single, addressable) proven of every element of
/// `Range`, read from the range's field `FieldOf(every-element fact)`.
void carryProvenForEvery(
    State &S, const RecordStorageLocation *Range,
    const RecordStorageLocation *Elem,
    llvm::function_ref<std::string(llvm::StringRef)> FieldOf) {
  Environment &Env = S.Env;
  for (auto [All, One] : {std::pair{kElemAddressable, kAddressable},
                          std::pair{kElemSingle, kSingle}})
    if (BoolValue *V = peekBool(Range, FieldOf(All), Env))
      if (provenForEveryElement(*V, Env))
        setBool(Elem, One, Env.getBoolLiteralValue(true), Env);
}

/// An element of a range: inherits what is proven of every element, and the
/// range's provenance.
void initElement(State &S, const RecordStorageLocation *Range,
                 const RecordStorageLocation *Elem) {
  if (!Range || !Elem)
    return;
  Environment &Env = S.Env;
  // Only a fact proven for every element carries over (a literal, or what
  // the path proves, as after `if (!all_of(...)) return;`), as a literal: a
  // guard on one element (devs[0].is_addressable()) says nothing about
  // another, which sharing the range's formula would say.
  carryProvenForEvery(S, Range, Elem,
                      [](llvm::StringRef All) { return All.str(); });
  // Platforms are a fact of every element where a range has one at all
  // (a platform argument, the sharding's platform, the array's for shards).
  if (BoolValue *All = peekBool(Range, kElemTpu, Env))
    setBool(Elem, kTpu, *All, Env);
  if (BoolValue *All = peekBool(Range, kElemPinned, Env))
    setBool(Elem, kPinned, *All, Env);
  setOrigin(S, Elem, originOf(S.Lattice, Range));
}

/// A range derived from a range (an iterator, a subspan, the pointee of a
/// smart pointer to a list) shares its facts.
void initDerivedRange(State &S, const RecordStorageLocation *From,
                      const RecordStorageLocation *To) {
  if (!From || !To || From == To)
    return;
  for (llvm::StringRef F :
       {kSingle, kElemAddressable, kElemSingle, kElemTpu, kElemPinned})
    copyBool(From, To, F, S.Env);
  setOrigin(S, To, originOf(S.Lattice, From));
}

/// An element of a range of holders (`for (const Entry &e : entries)`):
/// each held field gets what is proven of that field of every element, as
/// a literal (as initElement does for a device or an array).
void initHolder(const ApiModel &M, State &S, const RecordStorageLocation *Range,
                const RecordStorageLocation *Elem) {
  const CXXRecordDecl *RD = M.heldRecordOf(Range->getType());
  if (!RD || !sameRecord(Elem->getType(), RD))
    return;
  for (const auto &[Decl, Child] : Elem->children()) {
    const auto *F = dyn_cast<FieldDecl>(Decl);
    auto *Held = dyn_cast_or_null<RecordStorageLocation>(Child);
    if (!F || !Held || !llvm::is_contained(M.heldFields(RD), F))
      continue;
    carryProvenForEvery(S, Range, Held,
                        [F](llvm::StringRef All) { return heldFact(All, *F); });
  }
}

} // namespace

bool sameRecord(QualType T, const CXXRecordDecl *RD) {
  const CXXRecordDecl *Of = T->getAsCXXRecordDecl();
  return Of && RD && Of->getCanonicalDecl() == RD->getCanonicalDecl();
}

/// Replaces every fact of a range of holders by an unknown.
void forgetHeld(const RecordStorageLocation &Range, Environment &Env) {
  for (const auto &Entry : Range.synthetic_fields())
    forget(&Range, Entry.getKey(), Env);
}

/// Applies the element/derived-range rule to whatever `Loc` holds.
void initFromRange(const ApiModel &M, State &S,
                   const RecordStorageLocation *Range,
                   const RecordStorageLocation *Loc) {
  switch (roleOf(M, Loc)) {
  case TypeRole::Device:
  case TypeRole::Array:
    initElement(S, Range, Loc);
    break;
  case TypeRole::DeviceRange:
  case TypeRole::ArrayRange:
    initDerivedRange(S, Range, Loc);
    break;
  case TypeRole::HolderRange:
    // An iterator or view over the same holders shares their facts.
    if (Range && Loc && Range != Loc)
      for (const auto &Entry : Loc->synthetic_fields())
        copyBool(Range, Loc, Entry.getKey(), S.Env);
    break;
  case TypeRole::None:
    if (Range && Loc && roleOf(M, Range) == TypeRole::HolderRange)
      initHolder(M, S, Range, Loc);
    break;
  default:
    break;
  }
}

RecordStorageLocation &
cachedAccessor(const StorageLocation &Obj, const FunctionDecl *Key,
               const CallExpr *Site, QualType T, State &S,
               llvm::function_ref<void(RecordStorageLocation &)> Init,
               const void *Index) {
  StorageLocation *&Slot = S.Lattice.Accessors[{&Obj, Key, Index}];
  if (auto *R = dyn_cast_or_null<RecordStorageLocation>(Slot))
    return *R;
  RecordStorageLocation &Loc = S.Ctx.Stable.get(Site, T, S.Env);
  // Init may touch the lattice; take the slot again afterwards.
  S.Lattice.Accessors[{&Obj, Key, Index}] = &Loc;
  Init(Loc);
  return Loc;
}

bool enumeratorMatches(const ApiModel &M, llvm::StringRef Property,
                       const EnumConstantDecl *E) {
  if (Property == kIsTpu)
    return M.isTpuPlatform(E);
  if (Property == kIsPinned)
    return M.isPinnedHostMemoryKind(E);
  return Property == kIsSingleKind && M.isSingleDeviceShardingKind(E);
}

/// How a comparison of a device count with a constant relates to "exactly
/// one device". Counts are at least one. (Formulas live in the arena: the
/// one returned may be One itself.)
const Formula &countRelation(BinaryOperatorKind Op, const llvm::APSInt &K,
                             const Formula &One, Environment &Env) {
  Arena &A = Env.arena();
  auto Eval = [&](int64_t N) {
    llvm::APSInt V(llvm::APInt(128, N, /*isSigned=*/true),
                   /*isUnsigned=*/false);
    llvm::APSInt KK = K.extend(128);
    KK.setIsSigned(true);
    return evaluateComparison(Op, V, KK);
  };
  bool AtOne = Eval(1);
  bool AllTrue = true, AllFalse = true;
  int64_t KV = K.isRepresentableByInt64() ? K.getExtValue() : INT64_MAX / 4;
  for (int64_t N : {int64_t(2), KV - 1, KV, KV + 1, INT64_MAX / 2}) {
    if (N < 2)
      continue;
    bool B = Eval(N);
    AllTrue &= B;
    AllFalse &= !B;
  }
  if (AtOne && AllFalse)
    return One; // NOLINT(bugprone-return-const-ref-from-parameter)
  if (!AtOne && AllTrue)
    return A.makeNot(One);
  if (AtOne && AllTrue)
    return A.makeLiteral(true);
  if (!AtOne && AllFalse)
    return A.makeLiteral(false);
  // Mixed above one (n < 3, n == 2): only one direction is known.
  const Formula &C = A.makeAtomRef(A.makeAtom());
  Env.assume(AtOne ? A.makeImplies(One, C) : A.makeImplies(One, A.makeNot(C)));
  return C;
}

} // namespace clang::interop::arraydevice
