//===--- ArrayDeviceCheckBase.cpp - base of the array/device checks -------===//

#include "ArrayDeviceCheckBase.h"

#include "lib/arraydevice/ArrayDeviceFacts.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

ArrayDeviceCheckBase::ArrayDeviceCheckBase(StringRef Name,
                                           ClangTidyContext *Context,
                                           SinkKind Kind, unsigned Facts)
    : InteropCheckBase(Name, Context), Kind(Kind) {
  declareNeededFacts(Facts);
  // The API model is shared by the four checks: a key set once without a
  // check prefix (e.g. `ArrayTypes`) applies to all of them.
  ApiOptions.forEach([&](StringRef Key, std::string &Value) {
    Value = nameListOption(Key, Value, /*Global=*/true);
  });
  ApiOptions.Exits = exitConditionNames();
  Names = std::make_unique<ApiModel>(ApiOptions);
}

void ArrayDeviceCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  InteropCheckBase::storeOptions(Opts);
  ApiOptions.forEach([&](StringRef Key, const std::string &Value) {
    Options.store(Opts, Key, Value);
  });
}

void ArrayDeviceCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !isJudgedFunction(*FD))
    return;
  ArrayDeviceQuery &Q = Query ? *Query
                              : Query.emplace(ArrayDeviceConfig{
                                    ApiOptions, bounds(), neededFacts()});
  ASTContext &Ctx = *Result.Context;
  const ArrayDeviceFacts &Found = Q.facts(*FD, Ctx);
  if (skipped(*FD, Found.Skipped, Found.Detail))
    return;
  llvm::SmallPtrSet<const CallExpr *, 8> Judged;
  for (const SinkFact &F : Found.Events)
    if (F.Kind == Kind && F.Modelled && !Reported.count(F.Call) &&
        Judged.insert(F.Call).second && judge(F, Ctx))
      Reported.insert(F.Call);
}

void ArrayDeviceCheckBase::onStartOfTranslationUnit() {
  InteropCheckBase::onStartOfTranslationUnit();
  Reported.clear();
}

std::string ArrayDeviceCheckBase::calleeName(const CallExpr &Call) {
  if (const FunctionDecl *FD = Call.getDirectCallee())
    return FD->getNameAsString();
  return "call";
}

std::string ArrayDeviceCheckBase::subjectText(const SinkFact &Fact,
                                              ASTContext &Ctx) {
  const Expr *E = Fact.Subject->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreParenImpCasts();
  CharSourceRange Range = CharSourceRange::getTokenRange(E->getSourceRange());
  StringRef Text =
      Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts());
  // The receiver of `r->f()` is written `r->`.
  Text.consume_back("->");
  // One line, whitespace collapsed, long expressions shortened.
  std::string Flat;
  for (char C : Text) {
    bool Space = C == ' ' || C == '\n' || C == '\t' || C == '\r';
    if (Space && (Flat.empty() || Flat.back() == ' '))
      continue;
    Flat += Space ? ' ' : C;
  }
  if (Flat.empty())
    return "the argument";
  if (Flat.size() > 60)
    Flat = Flat.substr(0, 57) + "...";
  return "'" + Flat + "'";
}

void ArrayDeviceCheckBase::noteOrigin(const SinkFact &Fact, StringRef Missing) {
  const Origin &O = Fact.From;
  if (O.K == Origin::GlobalDevices && O.Site) {
    std::string Src = "this call";
    FixItHint Local;
    if (const auto *CE = dyn_cast<CallExpr>(O.Site)) {
      Src = "'" + calleeName(*CE) + "'";
      Local = addressableTwinFix(*CE);
    }
    diag(O.Site->getBeginLoc(),
         "the device comes from %0, which can return devices of other "
         "processes",
         DiagnosticIDs::Note)
        << Src << O.Site->getSourceRange() << Local;
    return;
  }
  if (O.K == Origin::Producer && O.Site) {
    std::string Src = "this call";
    if (const auto *CE = dyn_cast<CallExpr>(O.Site))
      Src = "'" + calleeName(*CE) + "'";
    diag(O.Site->getBeginLoc(),
         "the value comes from %0; nothing proves it is %1",
         DiagnosticIDs::Note)
        << Src << Missing << O.Site->getSourceRange();
    return;
  }
  const Expr *Named =
      O.K == Origin::Parameter && O.Site ? O.Site : Fact.Subject;
  if (const ParmVarDecl *P = parameterNamedBy(Named))
    diag(P->getLocation(),
         "%0 is a parameter: nothing in this function proves it is %1",
         DiagnosticIDs::Note)
        << P << Missing;
}

void ArrayDeviceCheckBase::noteUnseenGuard(const SinkFact &Fact) {
  const CallExpr *G = Fact.UnseenGuard;
  const FunctionDecl *Callee = G ? G->getDirectCallee() : nullptr;
  if (!Callee)
    return;
  bool Import = Fact.Kind == SinkKind::Import;
  diag(G->getBeginLoc(),
       "'%0' has no body in this translation unit, so what it checks is "
       "unknown; if it returns true only for %1, add '::%2' to %3",
       DiagnosticIDs::Note)
      << calleeName(*G)
      << (Import ? "devices this process can address" : "arrays on one device")
      << listedName(*Callee)
      << (Import ? "AddressablePredicates" : "SingleDevicePredicates")
      << G->getSourceRange();
}

void ArrayDeviceCheckBase::noteGuardOrGather(const SinkFact &Fact,
                                             ASTContext &Ctx) {
  std::string Gather = roleName(FnRole::SingleDeviceProducer, "gather");
  std::string Guard = roleName(FnRole::SingleDevicePredicate, "");
  if (Guard.empty())
    diag(Fact.Call->getBeginLoc(),
         "check that the array is on one device first, or copy it onto one "
         "device with '%0'",
         DiagnosticIDs::Note)
        << Gather << gatherFix(Fact, Ctx);
  else
    diag(Fact.Call->getBeginLoc(),
         "check '%0()' first, or copy the array onto one device with '%1'",
         DiagnosticIDs::Note)
        << Guard << Gather << gatherFix(Fact, Ctx);
}

FixItHint ArrayDeviceCheckBase::gatherFix(const SinkFact &Fact,
                                          ASTContext &Ctx) const {
  // The subject as written, outside a macro, of the array type itself (a
  // pointer or an implicit `this` would need rewriting around it).
  const Expr *S = Fact.Subject;
  SourceRange R = S ? S->getSourceRange() : SourceRange();
  if (!S || R.isInvalid() || R.getBegin().isMacroID() ||
      R.getEnd().isMacroID() || isa<CXXThisExpr>(S->IgnoreParenImpCasts()) ||
      S->getType()->isPointerType())
    return FixItHint();
  CharSourceRange Range = CharSourceRange::getTokenRange(R);
  StringRef Text =
      Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts());
  std::optional<std::string> Copy =
      Text.empty() ? std::nullopt
                   : Names->gatheredCopyText(Text, S->getType(), Ctx);
  if (!Copy)
    return FixItHint();
  return FixItHint::CreateReplacement(Range, *Copy);
}

FixItHint ArrayDeviceCheckBase::addressableTwinFix(const CallExpr &Call) const {
  // `interop::devices()[i]` -> `interop::local_devices()[i]`: the callee's
  // name, written outside a macro, replaced by its addressable twin.
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts());
  const auto *Callee = DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
  const FunctionDecl *Twin = Callee ? Names->addressableTwin(*Callee) : nullptr;
  if (!Twin || DRE->getLocation().isMacroID())
    return FixItHint();
  return FixItHint::CreateReplacement(
      CharSourceRange::getTokenRange(DRE->getLocation()), Twin->getName());
}

std::string ArrayDeviceCheckBase::roleName(FnRole R, StringRef Fallback,
                                           bool Qualified) const {
  llvm::ArrayRef<std::string> Listed = Names->names(R);
  if (Listed.empty())
    return Fallback.str();
  StringRef N = Listed.front();
  if (Qualified)
    return N.str();
  size_t Cut = N.rfind("::");
  return (Cut == StringRef::npos ? N : N.substr(Cut + 2)).str();
}

} // namespace clang::tidy::interop
