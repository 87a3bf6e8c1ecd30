//===--- DLPackNullDeleterCheck.cpp - interop-dlpack-null-deleter ---------===//

#include "DLPackNullDeleterCheck.h"

#include "lib/support/AstHelpers.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace clang::interop;

namespace clang::tidy::interop {

namespace {

/// `if (t->deleter) ` before a deleter call that is a statement of its own
/// in a block (Blocks), when the deleter's expression can be evaluated twice
/// (no side effects) and nothing of it comes from a macro; no fix otherwise.
FixItHint guardFix(const CallExpr &Call,
                   const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
                   ASTContext &Ctx) {
  const Expr *Deleter = Call.getCallee()->IgnoreParenImpCasts();
  if (Call.getBeginLoc().isMacroID() || Call.getEndLoc().isMacroID() ||
      Deleter->HasSideEffects(Ctx) || !Blocks.contains(&Call))
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

void DLPackNullDeleterCheck::checkFacts(const FunctionDecl &FD,
                                        const OwnershipFacts &Facts,
                                        ASTContext &Ctx) {
  std::optional<llvm::SmallPtrSet<const Stmt *, 32>> Blocks;
  for (const OwnershipEvent &E : Facts.Events) {
    if (E.K != OwnershipEvent::DeleterUnchecked)
      continue;
    if (!Blocks)
      Blocks = blockStatements(FD.getBody());
    const auto *Call = cast<CallExpr>(E.At);
    diag(Call->getBeginLoc(),
         "deleter of a tensor this function did not make called without "
         "testing it for NULL; a DLPack producer may leave the deleter NULL")
        << Call->getSourceRange() << guardFix(*Call, *Blocks, Ctx);
  }
}

} // namespace clang::tidy::interop
