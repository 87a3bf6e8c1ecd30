//===--- DLPackNullDeleterCheck.cpp - interop-dlpack-null-deleter ---------===//

#include "DLPackNullDeleterCheck.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang::interop;

namespace clang::tidy::interop {

namespace {

/// Whether S is a statement of a block of Body (not the body of an if
/// without braces, not part of a larger expression). One walk of the
/// function, only for a call that is reported: the translation unit's
/// parent map would cost every run.
bool isStatementOfBlock(const Stmt &S, const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const Stmt &S) : S(S) {}
    bool VisitCompoundStmt(CompoundStmt *CS) {
      Found = Found || llvm::is_contained(CS->body(), &S);
      return !Found;
    }
    const Stmt &S;
    bool Found = false;
  } F(S);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

/// `if (t->deleter) ` before a deleter call that is a statement of its own
/// in a block, when the deleter's expression can be evaluated twice (no
/// side effects) and nothing of it comes from a macro; no fix otherwise.
FixItHint guardFix(const CallExpr &Call, const FunctionDecl &FD,
                   ASTContext &Ctx) {
  const Expr *Deleter = Call.getCallee()->IgnoreParenImpCasts();
  if (Call.getBeginLoc().isMacroID() || Call.getEndLoc().isMacroID() ||
      Deleter->HasSideEffects(Ctx) || !isStatementOfBlock(Call, FD.getBody()))
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
  for (const OwnershipEvent &E : Facts.Events) {
    if (E.K != OwnershipEvent::DeleterUnchecked)
      continue;
    const auto *Call = cast<CallExpr>(E.At);
    diag(Call->getBeginLoc(),
         "deleter of a tensor this function did not make called without "
         "testing it for NULL; a DLPack producer may leave the deleter NULL")
        << Call->getSourceRange() << guardFix(*Call, FD, Ctx);
  }
}

} // namespace clang::tidy::interop
