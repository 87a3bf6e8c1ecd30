//===--- DLPackNullDeleterCheck.cpp - interop-dlpack-null-deleter ---------===//

#include "DLPackNullDeleterCheck.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang::interop;

namespace clang::tidy::interop {

namespace {

/// `if (t->deleter) ` before a deleter call that is a statement of its own
/// in a block, when the deleter's expression can be evaluated twice (no
/// side effects) and nothing of it comes from a macro; no fix otherwise.
FixItHint guardFix(const CallExpr &Call, ASTContext &Ctx) {
  const Expr *Deleter = Call.getCallee()->IgnoreParenImpCasts();
  if (Call.getBeginLoc().isMacroID() || Call.getEndLoc().isMacroID() ||
      Deleter->HasSideEffects(Ctx))
    return FixItHint();
  DynTypedNodeList Parents = Ctx.getParents(Call);
  if (Parents.size() != 1 || !Parents[0].get<CompoundStmt>())
    return FixItHint();
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Deleter->getSourceRange()),
      Ctx.getSourceManager(), Ctx.getLangOpts());
  if (Text.empty())
    return FixItHint();
  return FixItHint::CreateInsertion(Call.getBeginLoc(),
                                    ("if (" + Text + ") ").str());
}

} // namespace

void DLPackNullDeleterCheck::checkFacts(const FunctionDecl &,
                                        const OwnershipFacts &Facts,
                                        ASTContext &Ctx) {
  for (const OwnershipEvent &E : Facts.Events) {
    if (E.K != OwnershipEvent::DeleterUnchecked)
      continue;
    const auto *Call = cast<CallExpr>(E.At);
    diag(Call->getBeginLoc(),
         "deleter of a tensor this function did not make called without "
         "testing it for NULL; a DLPack producer may leave the deleter NULL")
        << Call->getSourceRange() << guardFix(*Call, Ctx);
  }
}

} // namespace clang::tidy::interop
