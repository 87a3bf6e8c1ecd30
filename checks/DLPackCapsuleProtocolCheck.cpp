//===--- DLPackCapsuleProtocolCheck.cpp - interop-dlpack-capsule-protocol -===//

#include "DLPackCapsuleProtocolCheck.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/ProducerExports.h"
#include "lib/abi/VersionRequests.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/ownership/OwnershipNames.h"
#include "lib/ownership/Releases.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

void DLPackCapsuleProtocolCheck::checkCapsuleNew(const Expr *Payload,
                                                 const Expr *NameArg,
                                                 const FunctionDecl *Dtor,
                                                 ASTContext &Ctx) {
  // The name must say which struct the capsule holds.
  DLPackRecord Held =
      classifyDLPackPointee(Payload->IgnoreParenImpCasts()->getType());
  CapsuleName Name = classifyCapsuleName(NameArg, Ctx);
  std::optional<std::string> Text = constantString(NameArg, Ctx);
  if (!makesDLPackCapsule(Payload, NameArg, Ctx))
    return;
  // The destructor reads the capsule under another name: it never
  // deletes (one finding for the two names that disagree).
  if (Dtor && Text)
    if (const CallExpr *Read = readUnderOtherName(*Dtor, *Text, Ctx)) {
      diag(Read->getBeginLoc(),
           "capsule destructor reads the capsule under '%0', but it is "
           "created as '%1'; the name never matches and the tensor is "
           "never deleted")
          << constantString(Read->getArg(1), Ctx).value_or("") << *Text
          << Read->getSourceRange();
      diag(NameArg->getBeginLoc(), "capsule created here", DiagnosticIDs::Note);
      return;
    }
  // A name of the library's own that it reads back itself: a private
  // capsule (a keep-alive base), never given to a DLPack consumer.
  if (Name == CapsuleName::Other && Text && readBackNames().contains(*Text))
    return;
  // The fix-it: the name the held struct needs, written over a name
  // spelled here (a literal or NULL, not a variable or a macro).
  auto Rename = [&]() {
    const Expr *Spelled = NameArg->IgnoreParenImpCasts();
    if (!isManagedTensor(Held) || NameArg->getBeginLoc().isMacroID() ||
        !(isa<StringLiteral>(Spelled) || Name == CapsuleName::Null))
      return FixItHint();
    return FixItHint::CreateReplacement(
        NameArg->getSourceRange(), ("\"" + capsuleNameFor(Held) + "\"").str());
  };
  if (Name == CapsuleName::Other || isUsedName(Name) ||
      Name == CapsuleName::Null) {
    diag(NameArg->getBeginLoc(),
         "capsule holding a DLPack tensor created with name '%0'; "
         "consumers accept only 'dltensor' or 'dltensor_versioned'")
        << (Text ? *Text : std::string("NULL")) << NameArg->getSourceRange()
        << Rename();
  } else if (Held == DLPackRecord::Tensor && isUnconsumedName(Name)) {
    // A bare DLTensor has no deleter: the consumer reads one past it.
    DLPackRecord Wanted = Name == CapsuleName::Versioned
                              ? DLPackRecord::ManagedTensorVersioned
                              : DLPackRecord::ManagedTensor;
    diag(Payload->getBeginLoc(),
         "capsule named '%0' holds a bare DLTensor; a consumer reads it as "
         "a %1 and calls a deleter read past its end")
        << (Text ? *Text : std::string(unconsumedNameText(Name)))
        << managedTensorName(Wanted) << Payload->getSourceRange();
    diag(NameArg->getBeginLoc(), "capsule created here", DiagnosticIDs::Note);
  } else if (Text && isManagedTensor(Held) && isUnconsumedName(Name) &&
             capsuleNameFor(Held) != *Text) {
    diag(NameArg->getBeginLoc(),
         "capsule named '%0' holds a %1; a consumer will read it as the "
         "other struct")
        << *Text << managedTensorName(Held) << NameArg->getSourceRange()
        << Rename();
    diag(NameArg->getBeginLoc(), "name it '%0'", DiagnosticIDs::Note)
        << capsuleNameFor(Held);
  }
}

void DLPackCapsuleProtocolCheck::checkCapsuleCall(const CallExpr &Call,
                                                  CapsuleCall K,
                                                  ASTContext &Ctx) {
  if (K == CapsuleCall::New && Call.getNumArgs() == 3) {
    checkCapsuleNew(Call.getArg(0), Call.getArg(1), installedDestructor(Call),
                    Ctx);
    return;
  }
  CapsuleCallView V = viewCapsuleCall(&Call);
  if (K == CapsuleCall::GetPointer && V.CurrentName) {
    // pybind11's get_pointer(), nanobind's data(): read under the current
    // name, a check only when the code compares name() first. A DLPack read
    // only when the pointer is read as a managed tensor.
    if (memberReadAs(Call, pointerCastOf(Call)) == DLPackRecord::None ||
        ownership::nameCheckedBefore(Call, Ctx))
      return;
    diag(Call.getBeginLoc(),
         "pointer taken from the capsule without checking its name; a "
         "consumed ('used_dltensor') or foreign capsule is read as a live "
         "tensor")
        << Call.getSourceRange();
    return;
  }
  if (K == CapsuleCall::GetPointer && V.Name) {
    CapsuleName Name = classifyCapsuleName(V.Name, Ctx);
    // Under no name of its own (NULL, its current one), a capsule is a
    // DLPack one only when its payload is read as a managed tensor: a
    // binding library's internals, NumPy's API table, a keep-alive capsule
    // read as `void *` or as a type of their own are not.
    // Under its own name read back, a comparison of that name first is
    // the check.
    if ((Name == CapsuleName::Null ||
         (Name == CapsuleName::FromGetName &&
          !ownership::nameCheckedBefore(Call, Ctx))) &&
        memberReadAs(Call, pointerCastOf(Call)) != DLPackRecord::None)
      diag(Call.getBeginLoc(),
           "pointer taken from the capsule without checking its name; a "
           "consumed ('used_dltensor') or foreign capsule is read as a live "
           "tensor")
          << Call.getSourceRange();
  }
}

void DLPackCapsuleProtocolCheck::checkCapsuleConstruct(
    const CXXConstructExpr &E, ASTContext &Ctx) {
  // pybind11's spelling of PyCapsule_New: the same names to check.
  if (isPybindCapsuleNew(E)) {
    checkCapsuleNew(E.getArg(0), E.getArg(1), installedDestructor(E), Ctx);
    return;
  }
  // A destructor of the pointer alone cannot see the capsule's name: a
  // consumer's rename does not stop it from deleting the tensor.
  const Expr *Dtor = pointerDestructorOf(E);
  if (!Dtor || E.getNumArgs() < 1 ||
      !isManagedTensor(classifyDLPackPointee(
          E.getArg(0)->IgnoreParenImpCasts()->getType())))
    return;
  // The tensor's own deleter cast to the destructor's type (Riva), or a
  // function whose body releases a tensor as a capsule destructor's would
  // (the ownership family's one answer to that).
  const FunctionDecl *Fn = destructorFunction(Dtor);
  if (dlpackFieldOfMember(Dtor->IgnoreParenCasts()) != DLPackField::Deleter &&
      !(Fn && Fn->hasBody() && ownership::callsDeleter(Fn)))
    return;
  diag(E.getBeginLoc(),
       "capsule holding a DLPack tensor made with a destructor of the "
       "pointer alone; it deletes the tensor whatever the capsule is named, "
       "also after a consumer renamed it to its used_ name")
      << E.getSourceRange();
  diag(Dtor->getBeginLoc(),
       "give the capsule a destructor of the capsule (PyObject *) that "
       "deletes only while PyCapsule_IsValid(capsule, \"dltensor\")",
       DiagnosticIDs::Note);
}

void DLPackCapsuleProtocolCheck::checkObjectCast(const ExplicitCastExpr &Cast,
                                                 ASTContext &) {
  diag(Cast.getBeginLoc(),
       "Python object cast to '%0'; a DLPack tensor is a capsule's pointer "
       "(PyCapsule_GetPointer), never the object itself")
      << Cast.getType().getAsString() << Cast.getSourceRange();
}

void DLPackCapsuleProtocolCheck::checkPointerCast(const ExplicitCastExpr &Cast,
                                                  const CallExpr &GetPointer,
                                                  ASTContext &Ctx) {
  // The struct the consumer reads the pointer as must match the name.
  CapsuleCallView V = viewCapsuleCall(&GetPointer);
  if (!V.Name)
    return;
  CapsuleName Name = classifyCapsuleName(V.Name, Ctx);
  DLPackRecord As = classifyDLPackPointee(Cast.getType());
  // A name chosen at run time with the struct (`versioned ? kVersioned :
  // kPlain`, read as the struct of the same branch) cannot be compared.
  if (Name == CapsuleName::EitherUnconsumed)
    return;
  if (isUnconsumedName(Name) && isManagedTensor(As) &&
      capsuleNameFor(As) != unconsumedNameText(Name))
    diag(Cast.getBeginLoc(), "capsule named '%0' read as a %1")
        << unconsumedNameText(Name) << managedTensorName(As);
}

void DLPackCapsuleProtocolCheck::checkFunction(const FunctionDecl &FD,
                                               bool IsCapsuleDestructor,
                                               ASTContext &Ctx) {
  // A consumer that imports the tensor but never marks the capsule used.
  if (IsCapsuleDestructor)
    return;
  std::optional<llvm::SmallPtrSet<const Stmt *, 32>> Blocks;
  std::vector<const CallExpr *> ConsumedReads;
  for (const CapsuleConsumption &C :
       findCapsuleConsumptions(FD.getBody(), Ctx, &ConsumedReads)) {
    if (!C.PointerPassedOn || C.Claimed)
      continue;
    diag(C.GetPointer->getBeginLoc(),
         "capsule consumed without renaming it to its used_ name (or "
         "clearing its destructor); its destructor will delete the tensor "
         "again")
        << C.GetPointer->getSourceRange();
    if (!Blocks)
      Blocks = blockStatements(FD.getBody());
    noteClaimAfterImport(C, *Blocks, Ctx);
  }
  // A capsule handed in already renamed, read as a live tensor.
  for (const CallExpr *Get : ConsumedReads)
    diag(Get->getBeginLoc(),
         "pointer taken from a capsule under its consumed name '%0'; the "
         "consumer that renamed it owns the tensor and may already have "
         "deleted it")
        << constantString(viewCapsuleCall(Get).Name, Ctx).value_or("")
        << Get->getSourceRange();
  // A producer answering every max_version with the versioned struct.
  if (std::optional<IgnoredVersionRequest> Ignored =
          ignoredVersionRequest(FD, Ctx)) {
    diag(Ignored->VersionedName->getBeginLoc(),
         "capsule named 'dltensor_versioned' whatever max_version the "
         "consumer passed; a consumer passing none, or a major version "
         "below 1, reads only a DLManagedTensor in a 'dltensor' capsule")
        << Ignored->VersionedName->getSourceRange();
    diag(Ignored->Request->getLocation(),
         "the consumer's max_version, never read", DiagnosticIDs::Note);
  }
  // A producer's capsule dropped unclaimed as the pointer is returned.
  for (const DyingCapsule &D : findDyingCapsules(FD.getBody(), Ctx)) {
    diag(D.Holder->getLocation(),
         "capsule from __dlpack__ is released when the function returns, "
         "still unconsumed; its destructor deletes the tensor whose pointer "
         "the function returns")
        << D.Holder->getSourceRange();
    diag(D.Return->getBeginLoc(), "pointer returned here",
         DiagnosticIDs::Note);
  }
}

void DLPackCapsuleProtocolCheck::noteClaimAfterImport(
    const CapsuleConsumption &C,
    const llvm::SmallPtrSetImpl<const Stmt *> &Blocks, ASTContext &Ctx) {
  // `PyCapsule_SetName(c, "used_dltensor");` on a line of its own after the
  // import's statement: for a capsule read under a DLPack name written at
  // the read, and an import that can fail only by throwing (a claim after an
  // import that returns its failure belongs after the test of it).
  CapsuleCallView V = viewCapsuleCall(C.GetPointer);
  CapsuleName Name =
      V.Name ? classifyCapsuleName(V.Name, Ctx) : CapsuleName::Other;
  if (!C.PassedTo || !C.Root || !V.Capsule ||
      (Name != CapsuleName::Legacy && Name != CapsuleName::Versioned))
    return;
  std::string Used = ("used_" + unconsumedNameText(Name)).str();
  FixItHint Claim;
  const Stmt *S =
      evaluatingBlockStatement(*C.PassedTo, Blocks, Ctx.getSourceManager());
  StringRef Capsule = Lexer::getSourceText(
      CharSourceRange::getTokenRange(V.Capsule->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (S && failsOnlyByThrowing(*C.PassedTo) && !Capsule.empty() &&
      !V.Capsule->getBeginLoc().isMacroID() &&
      !V.Capsule->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false)) {
    auto [At, Line] = afterStatement(*S, Ctx);
    if (At.isValid())
      Claim = FixItHint::CreateInsertion(
          At, (Line + "PyCapsule_SetName(" + Capsule + ", \"" + Used + "\");")
                  .str());
  }
  diag(C.PassedTo->getBeginLoc(),
       "the tensor is handed on here; rename the capsule to '%0' once this "
       "has succeeded",
       DiagnosticIDs::Note)
      << Used << Claim;
}

void DLPackCapsuleProtocolCheck::reportErrorEvent(const OwnershipEvent &E) {
  if (E.K == OwnershipEvent::DestructorClearsError)
    diag(E.At->getBeginLoc(),
         "capsule destructor clears the error indicator, discarding an "
         "exception that may be in flight");
  else
    diag(E.At->getBeginLoc(),
         "capsule destructor raises a new exception without saving the one "
         "in flight, which it replaces; a destructor cannot report an error");
  diag(E.At->getBeginLoc(),
       E.K == OwnershipEvent::DestructorClearsError
           ? "save it with PyErr_Fetch (or PyErr_GetRaisedException) first "
             "and restore it before returning"
           : "save the exception in flight first and restore it before "
             "returning; report the failure with PyErr_WriteUnraisable",
       DiagnosticIDs::Note);
}

void DLPackCapsuleProtocolCheck::checkFacts(const FunctionDecl &FD,
                                            const OwnershipFacts &Facts,
                                            ASTContext &Ctx) {
  for (const OwnershipEvent &E : Facts.Events) {
    switch (E.K) {
    case OwnershipEvent::CapsulePointerUnchecked:
      diag(E.At->getBeginLoc(),
           "pointer from PyCapsule_GetPointer used without checking for "
           "NULL; a consumed or misnamed capsule returns NULL");
      if (E.Related)
        diag(E.Related->getBeginLoc(), "pointer taken here",
             DiagnosticIDs::Note);
      break;
    case OwnershipEvent::CapsuleNameUnchecked:
      diag(E.At->getBeginLoc(),
           "capsule name from PyCapsule_GetName read without checking for "
           "NULL; a capsule may be named NULL, and the call returns NULL on "
           "error");
      diag(E.Related->getBeginLoc(), "name taken here", DiagnosticIDs::Note);
      break;
    case OwnershipEvent::RenameBeforeImport:
      diag(E.Related ? E.Related->getBeginLoc() : E.At->getBeginLoc(),
           "capsule renamed to its used_ name before the import has "
           "succeeded; if the import fails, nobody deletes the tensor");
      diag(E.At->getBeginLoc(), "the import happens here", DiagnosticIDs::Note);
      break;
    case OwnershipEvent::NotClaimedAfterImport:
      diag(E.At->getBeginLoc(),
           "%0 takes ownership even when it fails, but the capsule is not "
           "renamed on some path after it; the capsule's destructor will "
           "delete the tensor again")
          << (isa<CallExpr>(E.At) && cast<CallExpr>(E.At)->getDirectCallee()
                  ? cast<CallExpr>(E.At)->getDirectCallee()->getName()
                  : StringRef("the importer"));
      diag(E.ExitLoc, "the function leaves here without renaming it",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::ThrowBeforeClaim:
      diag(E.At->getBeginLoc(),
           "this call can throw after the capsule's tensor was handed on and "
           "before the capsule is renamed; if it does, the capsule's "
           "destructor deletes the tensor its new owner deletes too");
      diag(E.Related->getBeginLoc(),
           "the capsule is renamed only here; rename it right after the "
           "import succeeds",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DestructorUncheckedDelete:
      diag(E.At->getBeginLoc(),
           "capsule destructor calls the deleter without checking that the "
           "capsule is unconsumed; a consumer that renamed it owns the "
           "tensor");
      diag(E.At->getBeginLoc(),
           "check PyCapsule_IsValid(capsule, \"dltensor\") first",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DestructorClearsError:
    case OwnershipEvent::DestructorRaises:
      reportErrorEvent(E);
      break;
    case OwnershipEvent::DestructorReadRaises:
      diag(E.At->getBeginLoc(),
           "capsule destructor reads the pointer under the unconsumed name "
           "without checking the name first; on a capsule a consumer "
           "renamed, PyCapsule_GetPointer raises an exception a destructor "
           "cannot report");
      diag(E.At->getBeginLoc(),
           "return first when PyCapsule_IsValid(capsule, \"dltensor\") is "
           "false",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::RepeatedExport:
      diag(E.At->getBeginLoc(),
           "'__dlpack__' of %0 called again while the capsule of an earlier "
           "call may be unused; that capsule is dropped, and the producer "
           "exports its data twice for one import")
          << E.Owner;
      diag(E.Related ? E.Related->getBeginLoc() : E.At->getBeginLoc(),
           E.Related ? "the earlier call; use its capsule, or ask once"
                     : "in a loop: the capsule of the previous iteration",
           DiagnosticIDs::Note);
      break;
    default:
      break;
    }
  }
}

} // namespace clang::tidy::interop
