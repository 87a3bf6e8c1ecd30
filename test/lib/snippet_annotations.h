//===--- snippet_annotations.h - annotated snippets -------------*- C++ -*-===//
//
// The DLPack and ownership model tests mark each line where the model must
// report an event with the event's kind and the facts to compare:
// `// [[kind key=value key=value; kind]]` (several events on one line are
// separated by `;`). compareEvents() pairs what the model reported with the
// annotations, kind by kind and in order, and describes every mismatch: an
// event without an annotation, an annotation without an event, or a fact
// with another value. A snippet cannot pass by being ignored.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_SNIPPET_ANNOTATIONS_H
#define INTEROP_TEST_LIB_SNIPPET_ANNOTATIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace interop_test {

/// One annotated event: its kind and the facts it must have.
struct Expectation {
  std::string Kind;
  std::map<std::string, std::string> Keys;
};

/// One event the model reported: its kind and every fact it can be asked.
struct ReportedEvent {
  std::string Kind;
  std::map<std::string, std::string> Facts;
};

/// line -> the text between `// [[` and `]]` on that line, for every
/// annotated line; FirstLine is the snippet's first line in the parsed file.
/// The bodies point into Code.
inline std::map<unsigned, llvm::StringRef>
annotationBodies(llvm::StringRef Code, unsigned FirstLine) {
  std::map<unsigned, llvm::StringRef> Result;
  llvm::SmallVector<llvm::StringRef> Lines;
  Code.split(Lines, '\n');
  for (unsigned I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I];
    size_t Open = L.find("// [[");
    if (Open == llvm::StringRef::npos)
      continue;
    llvm::StringRef Body = L.substr(Open + 5);
    Result[FirstLine + I] = Body.take_until([](char C) { return C == ']'; });
  }
  return Result;
}

/// `key=value` words as key -> value.
inline std::map<std::string, std::string>
parseKeyValues(llvm::ArrayRef<llvm::StringRef> Words) {
  std::map<std::string, std::string> Result;
  for (llvm::StringRef W : Words) {
    auto [K, V] = W.split('=');
    Result[K.str()] = V.str();
  }
  return Result;
}

/// line -> the events expected there; FirstLine is the snippet's first line
/// in the parsed file.
inline std::map<unsigned, std::vector<Expectation>>
parseAnnotations(llvm::StringRef Code, unsigned FirstLine) {
  std::map<unsigned, std::vector<Expectation>> Result;
  for (const auto &[Line, Body] : annotationBodies(Code, FirstLine)) {
    llvm::SmallVector<llvm::StringRef> Events;
    Body.split(Events, ';', -1, false);
    for (llvm::StringRef Ev : Events) {
      llvm::SmallVector<llvm::StringRef> Words;
      Ev.split(Words, ' ', -1, false);
      if (Words.empty())
        continue;
      Result[Line].push_back(
          {Words[0].str(), parseKeyValues(llvm::ArrayRef(Words).drop_front())});
    }
  }
  return Result;
}

inline unsigned lineOf(const clang::SourceManager &SM,
                       clang::SourceLocation Loc) {
  return SM.getPresumedLineNumber(SM.getExpansionLoc(Loc));
}

/// Every mismatch between Got and Expected (both by line of the parsed
/// file), one per line of text; empty when they agree. Lines are reported
/// relative to the snippet, which starts after PreludeLines.
inline std::string
compareEvents(std::map<unsigned, std::vector<ReportedEvent>> Got,
              std::map<unsigned, std::vector<Expectation>> Expected,
              unsigned PreludeLines) {
  std::string Errors;
  std::set<unsigned> Lines;
  for (const auto &[L, _] : Got)
    Lines.insert(L);
  for (const auto &[L, _] : Expected)
    Lines.insert(L);
  for (unsigned Line : Lines) {
    if (Line <= PreludeLines) {
      Errors += "event in the prelude, line " + std::to_string(Line) + "\n";
      continue;
    }
    std::string Where = "line " + std::to_string(Line - PreludeLines) + ": ";
    std::map<std::string, std::vector<const ReportedEvent *>> GotByKind;
    for (const ReportedEvent &E : Got[Line])
      GotByKind[E.Kind].push_back(&E);
    std::map<std::string, std::vector<const Expectation *>> WantByKind;
    for (const Expectation &X : Expected[Line])
      WantByKind[X.Kind].push_back(&X);
    std::set<std::string> Kinds;
    for (const auto &[K, _] : GotByKind)
      Kinds.insert(K);
    for (const auto &[K, _] : WantByKind)
      Kinds.insert(K);
    for (const std::string &K : Kinds) {
      const auto &G = GotByKind[K];
      const auto &W = WantByKind[K];
      if (G.size() != W.size()) {
        Errors += Where + std::to_string(G.size()) + " " + K + " event(s), " +
                  std::to_string(W.size()) + " annotated\n";
        continue;
      }
      // Pair in order: events and annotations both follow the source.
      for (size_t I = 0; I < G.size(); ++I)
        for (const auto &[Key, Want] : W[I]->Keys) {
          auto It = G[I]->Facts.find(Key);
          std::string Have =
              It == G[I]->Facts.end() ? "<no key " + Key + ">" : It->second;
          if (Have != Want)
            Errors += Where + K + ": " + Key + " is " + Have + ", expected " +
                      Want + "\n";
        }
    }
  }
  return Errors;
}

/// A snippet parsed after its prelude: the AST, the prelude's length in
/// lines, the snippet's annotations, and the definitions of the main file.
struct ParsedSnippet {
  std::unique_ptr<clang::ASTUnit> AST;
  unsigned PreludeLines = 0;
  std::map<unsigned, std::vector<Expectation>> Expected;
  std::vector<const clang::FunctionDecl *> Functions;
  /// Why there is nothing to check: it did not parse or does not compile.
  std::string Error;
};

inline ParsedSnippet parseSnippet(llvm::StringRef Prelude,
                                  llvm::StringRef Snippet,
                                  const std::vector<std::string> &Args) {
  using namespace clang::ast_matchers;
  ParsedSnippet P;
  P.PreludeLines = llvm::count(Prelude, '\n');
  P.AST = clang::tooling::buildASTFromCodeWithArgs(
      Prelude.str() + Snippet.str(), Args, "snippet.cpp");
  if (!P.AST) {
    P.Error = "snippet did not parse";
    return P;
  }
  clang::ASTContext &Ctx = P.AST->getASTContext();
  if (Ctx.getDiagnostics().hasErrorOccurred()) {
    P.Error = "snippet has compile errors";
    return P;
  }
  P.Expected = parseAnnotations(Snippet, P.PreludeLines + 1);
  for (const BoundNodes &N :
       match(functionDecl(isDefinition(), isExpansionInMainFile(),
                          unless(isImplicit()))
                 .bind("fn"),
             Ctx))
    P.Functions.push_back(N.getNodeAs<clang::FunctionDecl>("fn"));
  return P;
}

/// The one definition of a function named Name in Ctx.
inline const clang::FunctionDecl *functionNamed(clang::ASTContext &Ctx,
                                                llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  auto Found =
      match(functionDecl(hasName(Name), isDefinition()).bind("fn"), Ctx);
  EXPECT_EQ(Found.size(), 1u) << Name.str();
  return Found.empty() ? nullptr
                       : Found[0].getNodeAs<clang::FunctionDecl>("fn");
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_SNIPPET_ANNOTATIONS_H
