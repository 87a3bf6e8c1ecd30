//===--- JudgedFunctions.cpp - the functions the checks judge -------------===//

#include "lib/engine/JudgedFunctions.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

using namespace clang::ast_matchers;

namespace clang::interop {

DeclarationMatcher judgedFunctionMatcher() {
  return functionDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                      unless(isImplicit()), unless(isDefaulted()))
      .bind("fn");
}

/// A template pattern, or a function inside one (a hidden friend of a
/// class template is templated without being in a dependent context).
static bool isTemplatePattern(const FunctionDecl &FD) {
  return FD.isDependentContext() || FD.isTemplated();
}

bool isJudgedFunction(const FunctionDecl &FD) {
  return FD.hasBody() && !isTemplatePattern(FD) && !FD.isInvalidDecl();
}

namespace {

/// Forwards every diagnostic to the consumer it replaces (clang-tidy's),
/// unchanged, and remembers where each error was reported (as an expansion
/// location, so that an error inside a macro expansion is where the macro
/// was used). One per DiagnosticsEngine, owned by it.
class CompileErrorRecorder : public DiagnosticConsumer {
public:
  CompileErrorRecorder(DiagnosticsEngine &Engine, DiagnosticConsumer *Inner,
                       std::unique_ptr<DiagnosticConsumer> OwnedInner)
      : Engine(Engine), Inner(Inner), OwnedInner(std::move(OwnedInner)) {
    recorders()[&Engine] = this;
  }
  ~CompileErrorRecorder() override {
    auto It = recorders().find(&Engine);
    if (It != recorders().end() && It->second == this)
      recorders().erase(It);
  }

  /// The recorder installed on Engine, if it is still Engine's consumer.
  static CompileErrorRecorder *of(const DiagnosticsEngine &Engine) {
    CompileErrorRecorder *R = recorders().lookup(&Engine);
    return R && Engine.getClient() == R ? R : nullptr;
  }

  void clear() override {
    DiagnosticConsumer::clear();
    Inner->clear();
  }
  void BeginSourceFile(const LangOptions &LangOpts,
                       const Preprocessor *PP) override {
    Inner->BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Inner->EndSourceFile(); }
  void finish() override { Inner->finish(); }
  bool IncludeInDiagnosticCounts() const override {
    return Inner->IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    // Warnings turned into errors (-Werror) do not stop compilation, and
    // are not what makes a function's AST mean nothing.
    if (Level >= DiagnosticsEngine::Error && Info.getLocation().isValid() &&
        Info.hasSourceManager() &&
        Engine.getDiagnosticIDs()->isDefaultMappingAsError(Info.getID())) {
      std::pair<FileID, unsigned> At =
          Info.getSourceManager().getDecomposedExpansionLoc(Info.getLocation());
      Errors.push_back(At);
      Sorted = false;
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // counts
    Inner->HandleDiagnostic(Level, Info);
  }

  /// True when an error was reported between the expansion locations of
  /// Range's ends (inclusive).
  bool errorWithin(SourceRange Range, const SourceManager &SM) {
    if (Errors.empty() || Range.isInvalid())
      return false;
    if (!Sorted) {
      llvm::sort(Errors);
      Sorted = true;
    }
    std::pair<FileID, unsigned> Begin =
        SM.getDecomposedExpansionLoc(Range.getBegin());
    std::pair<FileID, unsigned> End =
        SM.getDecomposedExpansionLoc(Range.getEnd());
    if (Begin.first == End.first) {
      auto It = std::lower_bound(Errors.begin(), Errors.end(), Begin);
      return It != Errors.end() && It->first == End.first &&
             It->second <= End.second;
    }
    // A function whose ends lie in different files (a body completed by an
    // #include): compare in translation-unit order.
    SourceLocation B = SM.getExpansionLoc(Range.getBegin());
    SourceLocation E = SM.getExpansionLoc(Range.getEnd());
    for (const auto &[File, Offset] : Errors) {
      SourceLocation L = SM.getComposedLoc(File, Offset);
      if (!SM.isBeforeInTranslationUnit(L, B) &&
          !SM.isBeforeInTranslationUnit(E, L))
        return true;
    }
    return false;
  }

  /// Whether FD contains an error, computed once per function.
  llvm::DenseMap<const FunctionDecl *, bool> Judged;

private:
  static llvm::DenseMap<const DiagnosticsEngine *, CompileErrorRecorder *> &
  recorders() {
    static llvm::DenseMap<const DiagnosticsEngine *, CompileErrorRecorder *> R;
    return R;
  }

  DiagnosticsEngine &Engine;
  DiagnosticConsumer *Inner;
  std::unique_ptr<DiagnosticConsumer> OwnedInner;
  std::vector<std::pair<FileID, unsigned>> Errors;
  bool Sorted = true;
};

/// True when S holds what clang builds for code that does not compile: an
/// expression that contains errors (a RecoveryExpr, a call of an undeclared
/// function, a member that does not exist) or an invalid declaration (a
/// variable of an unknown type).
bool containsErrors(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (E->containsErrors())
      return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (D->isInvalidDecl())
        return true;
  for (const Stmt *Child : S->children())
    if (containsErrors(Child))
      return true;
  return false;
}

bool functionContainsErrors(const FunctionDecl &FD) {
  for (const ParmVarDecl *P : FD.parameters())
    if (P->isInvalidDecl())
      return true;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->getInit() && containsErrors(Init->getInit()))
        return true;
  return containsErrors(FD.getBody());
}

} // namespace

void recordCompileErrors(Preprocessor &PP) {
  DiagnosticsEngine &Engine = PP.getDiagnostics();
  if (CompileErrorRecorder::of(Engine) || !Engine.getClient())
    return;
  DiagnosticConsumer *Inner = Engine.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = Engine.takeClient();
  Engine.setClient(new CompileErrorRecorder(Engine, Inner, std::move(Owned)),
                   /*ShouldOwnClient=*/true);
}

/// Whether FD is code that does not compile: it is an invalid declaration,
/// its own signature, initialisers or body hold an error, or (when the
/// errors are recorded) the compiler reported an error inside its source
/// range. The last catches what clang drops without a trace in the AST: a
/// statement with a syntax error or a name in an undeclared namespace
/// (`acme::f(t);`, the usual sign of a missing header), a member initialiser;
/// after a fatal error (a missing #include) the compiler reports nothing more,
/// and only the AST tells.
static bool doesNotCompile(const FunctionDecl &FD) {
  if (FD.isInvalidDecl())
    return true;
  const DiagnosticsEngine &Diags = FD.getASTContext().getDiagnostics();
  // The common case costs one test: a translation unit without errors.
  if (!Diags.hasUncompilableErrorOccurred())
    return false;
  CompileErrorRecorder *Recorder = CompileErrorRecorder::of(Diags);
  if (!Recorder)
    return functionContainsErrors(FD);
  auto [It, New] = Recorder->Judged.try_emplace(&FD, false);
  if (New)
    It->second = Recorder->errorWithin(FD.getSourceRange(),
                                       FD.getASTContext().getSourceManager()) ||
                 functionContainsErrors(FD);
  return It->second;
}

bool isUncompiledDefinition(const FunctionDecl &FD) {
  return FD.hasBody() && !isTemplatePattern(FD) && FD.isInvalidDecl();
}

bool statementDoesNotCompile(const Stmt &S, const ASTContext &Ctx) {
  if (containsErrors(&S))
    return true;
  const DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  if (!Diags.hasUncompilableErrorOccurred())
    return false;
  CompileErrorRecorder *Recorder = CompileErrorRecorder::of(Diags);
  return Recorder &&
         Recorder->errorWithin(S.getSourceRange(), Ctx.getSourceManager());
}

SkipReason whyNotAnalysable(const FunctionDecl &FD) {
  if (!FD.doesThisDeclarationHaveABody() || !FD.getBody())
    return SkipReason::NoBody;
  if (isTemplatePattern(FD))
    return SkipReason::Dependent;
  if (doesNotCompile(FD))
    return SkipReason::InvalidCode;
  return SkipReason::None;
}

bool isSameTUHelper(const FunctionDecl &FD, const SourceManager &SM,
                    bool LambdaCallOperator) {
  if (!FD.doesThisDeclarationHaveABody() || FD.isDependentContext() ||
      FD.isTemplateInstantiation() || whyNotAnalysable(FD) != SkipReason::None)
    return false;
  if (SM.isInSystemHeader(FD.getLocation()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD))
    if ((MD->getParent()->isLambda() && !LambdaCallOperator) ||
        (!MD->isStatic() && !MD->isConst()) || isa<CXXConstructorDecl>(MD) ||
        isa<CXXDestructorDecl>(MD))
      return false;
  return true;
}

} // namespace clang::interop
