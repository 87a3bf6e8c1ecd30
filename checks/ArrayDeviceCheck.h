//===--- ArrayDeviceCheck.h - shared driver of the seed checks --*- C++ -*-===//
//
// The four array/device seed checks differ only in which calls they judge
// and how they word a finding. This base reads the API-model options every
// one of them takes, registers the pre-filter matcher, asks lib/ for the
// facts at each judged call, reports skipped functions on request, and words
// the notes (where the value came from, what would fix it).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_ARRAYDEVICECHECK_H
#define INTEROP_CHECKS_ARRAYDEVICECHECK_H

#include "ClangTidyCheck.h"
#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceFacts.h"
#include "lib/arraydevice/ArrayDeviceModel.h"
#include "lib/engine/FlowRunner.h"

#include <memory>

namespace clang::tidy::interop {

class ArrayDeviceCheck : public ClangTidyCheck {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

protected:
  /// `Facts`: the clang::interop::FactFamily bits this check reads.
  ArrayDeviceCheck(StringRef Name, ClangTidyContext *Context,
                   clang::interop::SinkKind Kind, unsigned Facts);

  /// Reports what is wrong at one judged call, if anything.
  virtual void judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) = 0;

  const clang::interop::ApiModel &model() const { return *Model; }

  /// The callee's name as written at the call ("to_dlpack").
  static std::string calleeName(const CallExpr &Call);
  /// The subject as written ("a", "holder.array", "*r").
  static std::string subjectText(const clang::interop::SinkFact &Fact,
                                 ASTContext &Ctx);
  /// A note at where the subject came from: the unknown producer, the
  /// all-process device list, or the parameter it is. `Missing` says what
  /// nothing proves ("single-device").
  void noteOrigin(const clang::interop::SinkFact &Fact, StringRef Missing);
  /// The remedy note of the sharding checks: the configured guard, or a copy
  /// onto one device.
  void noteGuardOrGather(const clang::interop::SinkFact &Fact);
  /// The first listed name for a role without its qualifiers ("gather"), or
  /// `Fallback` when the option lists none.
  std::string roleName(clang::interop::FnRole R, StringRef Fallback,
                       bool Qualified = false) const;

private:
  clang::interop::SinkKind Kind;
  clang::interop::ApiModelOptions ApiOptions;
  const bool ReportSkippedFunctions;
  std::unique_ptr<clang::interop::ApiModel> Model;
  clang::interop::FlowBounds Bounds;
  /// The shared analysis for the current translation unit (looked up once:
  /// the lookup hashes every option).
  clang::interop::ArrayDeviceFacts *Facts = nullptr;
  const ASTContext *FactsCtx = nullptr;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_ARRAYDEVICECHECK_H
