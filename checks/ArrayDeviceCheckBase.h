//===--- ArrayDeviceCheckBase.h - base of the array checks ------*- C++ -*-===//
//
// interop-sharded-dlpack-export, -sharded-cuda-array-interface,
// -nonaddressable-dlpack-import and -tpu-dlpack-memory-kind differ only in
// which calls they judge and how they word a finding. This base reads the
// API-model options every one of them takes, asks lib/ for the array/device
// facts of each judged function (lib/arraydevice/ArrayDeviceFacts.h), hands
// each sink call of its kind to the check, and words the notes (where the
// value came from, what would fix it).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_ARRAYDEVICECHECKBASE_H
#define INTEROP_CHECKS_ARRAYDEVICECHECKBASE_H

#include "InteropCheckBase.h"

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace clang::tidy::interop {

class ArrayDeviceCheckBase : public InteropCheckBase {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }

protected:
  /// `Facts`: the clang::interop::FactFamily bits this check reads.
  ArrayDeviceCheckBase(StringRef Name, ClangTidyContext *Context,
                       clang::interop::SinkKind Kind, unsigned Facts);

  /// Reports what is wrong at one judged call, if anything; true when it
  /// reported something.
  virtual bool judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) = 0;

  /// The callee's name as written at the call ("to_dlpack").
  static std::string calleeName(const CallExpr &Call);
  /// The subject as written ("a", "holder.array", "*r").
  static std::string subjectText(const clang::interop::SinkFact &Fact,
                                 ASTContext &Ctx);
  /// A note at where the subject came from: the unknown producer, the
  /// all-process device list, or the parameter it is. `Missing` says what
  /// nothing proves ("single-device").
  void noteOrigin(const clang::interop::SinkFact &Fact, StringRef Missing);
  /// A note at a guard the analysis could not see (SinkFact::UnseenGuard),
  /// naming the option that would describe it.
  void noteUnseenGuard(const clang::interop::SinkFact &Fact);
  /// The remedy note of the sharding checks: the configured guard, or a copy
  /// onto one device (with gatherFix()).
  void noteGuardOrGather(const clang::interop::SinkFact &Fact, ASTContext &Ctx);
  /// A note fix-it replacing the subject by its copy onto this process's
  /// first device (ApiModel::gatheredCopyText); none for a subject in a
  /// macro, a pointer or `this`.
  FixItHint gatherFix(const clang::interop::SinkFact &Fact,
                      ASTContext &Ctx) const;
  /// The first listed name for a role without its qualifiers ("gather"), or
  /// `Fallback` when the option lists none.
  /// A note fix-it naming the addressable twin of a global device source
  /// (`local_devices` for `devices`), when one is declared beside it.
  FixItHint addressableTwinFix(const CallExpr &Call) const;
  std::string roleName(clang::interop::FnRole R, StringRef Fallback,
                       bool Qualified = false) const;

private:
  clang::interop::SinkKind Kind;
  clang::interop::ApiModelOptions ApiOptions;
  /// The API model, for the names it lists (roleName()); it classifies
  /// nothing, so it holds no declaration of any translation unit.
  std::unique_ptr<clang::interop::ApiModel> Names;
  /// Made on the first judged function, once every check has declared the
  /// facts it needs (declareNeededFacts()).
  std::optional<clang::interop::ArrayDeviceQuery> Query;
  /// The calls reported in this translation unit: a default member
  /// initialiser is one call judged in every constructor that uses it, and
  /// is reported once.
  llvm::DenseSet<const CallExpr *> Reported;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_ARRAYDEVICECHECKBASE_H
