// Unit tests of the API model: option parsing, naming and classification.

#include "lib/arraydevice/ApiModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;

namespace {

TEST(ApiModelOptions, KeyNamesEveryOption) {
  ApiModelOptions A, B;
  EXPECT_EQ(A.key(), B.key());
  B.TpuPlatforms = "::other::kTpu";
  EXPECT_NE(A.key(), B.key());
  unsigned Count = 0;
  A.forEach([&](llvm::StringRef, const std::string &) { ++Count; });
  // Every string option, ShardedPredicates included; the callee contracts
  // (Exits) are lists of their own, in the key too.
  EXPECT_EQ(Count, 30u);
  B = A;
  B.Exits.RequireFunctions = {"::mine::ensure$"};
  EXPECT_NE(A.key(), B.key());
}

class ModelOnCode : public ::testing::Test {
protected:
  void SetUp() override {
    AST = tooling::buildASTFromCodeWithArgs(
        R"cpp(
#include "interop/interop.h"
namespace mine {
template <class T> struct Span { T *begin() const; };
struct MyArray : interop::Array {};
enum Kind { kPinned, kOther };
struct Entry { const char *name; interop::Array array; interop::Device *by_ptr; };
struct Plain { int x; };
}
void use(interop::Result<interop::Array> r, std::vector<interop::Device> v,
         mine::Span<const interop::Device *> s, mine::MyArray m,
         std::vector<interop::Array> shards, int plain,
         std::vector<mine::Entry> entries, std::vector<mine::Plain> plains,
         mine::Entry entry);
void call(interop::Result<interop::Array> &r) { r.value(); }
)cpp",
        {"-std=c++17", "-I" INTEROP_TEST_INPUTS}, "model.cpp");
    ASSERT_TRUE(AST);
  }
  QualType paramType(unsigned I) {
    auto Found =
        match(functionDecl(hasName("use")).bind("f"), AST->getASTContext());
    return Found[0].getNodeAs<FunctionDecl>("f")->getParamDecl(I)->getType();
  }
  const FunctionDecl *function(llvm::StringRef Name) {
    auto Found =
        match(functionDecl(hasName(Name)).bind("f"), AST->getASTContext());
    return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
  }
  std::unique_ptr<ASTUnit> AST;
};

TEST_F(ModelOnCode, ClassifiesTypes) {
  ApiModel M{ApiModelOptions()};
  EXPECT_EQ(M.classify(paramType(0)), TypeRole::Result);
  EXPECT_EQ(M.classify(paramType(1)), TypeRole::DeviceRange);
  EXPECT_EQ(M.classify(paramType(2)), TypeRole::DeviceRange)
      << "a view over device pointers is a device range";
  EXPECT_EQ(M.classify(paramType(3)), TypeRole::Array)
      << "a class derived from a modelled array is an array";
  EXPECT_EQ(M.classify(paramType(4)), TypeRole::ArrayRange);
  EXPECT_EQ(M.classify(paramType(5)), TypeRole::None);
}

TEST_F(ModelOnCode, AddressableTwinsOfGlobalDeviceSources) {
  ApiModel M{ApiModelOptions()};
  ASTContext &Ctx = AST->getASTContext();
  auto Twin = [&](llvm::StringRef Name, unsigned Params) -> std::string {
    for (const BoundNodes &N :
         match(functionDecl(hasName(Name), parameterCountIs(Params)).bind("f"),
               Ctx))
      if (const FunctionDecl *T =
              M.addressableTwin(*N.getNodeAs<FunctionDecl>("f")))
        return listedName(*T) + "/" + std::to_string(T->getNumParams());
    return "none";
  };
  // The same parameters and result, in the same namespace.
  EXPECT_EQ(Twin("::interop::devices", 0), "interop::local_devices/0");
  EXPECT_EQ(Twin("::interop::devices", 1), "interop::local_devices/1");
  // local_device_for takes a DLDevice, not (platform, id).
  EXPECT_EQ(Twin("::interop::device_by_id", 2), "none");
  // A sharding's device list is a member: no free twin.
  EXPECT_EQ(Twin("::interop::Sharding::devices", 0), "none");
}

TEST_F(ModelOnCode, GatheredCopyIsBuiltFromDeclaredFunctions) {
  ASTContext &Ctx = AST->getASTContext();
  QualType Array = function("call")->getParamDecl(0)->getType();
  // Result<Array>: the wrapped array is the element type of the result.
  Array = cast<ClassTemplateSpecializationDecl>(
              Array.getNonReferenceType()->getAsCXXRecordDecl())
              ->getTemplateArgs()[0]
              .getAsType();
  ApiModelOptions O;
  ApiModel M{O};
  EXPECT_EQ(M.gatheredCopyText("*r", Array, Ctx),
            "interop::gather(*r, interop::local_devices()[0]).value()");
  // A derived array would come back as its base: no copy offered.
  EXPECT_EQ(M.gatheredCopyText("m", paramType(3), Ctx), std::nullopt);
  // Names the translation unit does not declare, or patterns: none.
  O.SingleDeviceProducers = "::mine::collect";
  EXPECT_EQ(ApiModel(O).gatheredCopyText("a", Array, Ctx), std::nullopt);
  O = ApiModelOptions();
  O.AddressableDeviceSources = "local_dev.*";
  EXPECT_EQ(ApiModel(O).gatheredCopyText("a", Array, Ctx), std::nullopt);
  // A producer that is no (array, device) function is passed over for the
  // next one listed.
  O = ApiModelOptions();
  O.SingleDeviceProducers = "::interop::from_dlpack;::interop::gather";
  EXPECT_EQ(ApiModel(O).gatheredCopyText("a", Array, Ctx),
            "interop::gather(a, interop::local_devices()[0]).value()");
}

TEST_F(ModelOnCode, RangesOfRecordsHoldingArraysNameTheHeldFields) {
  ApiModel M{ApiModelOptions()};
  EXPECT_EQ(M.classify(paramType(6)), TypeRole::HolderRange);
  EXPECT_EQ(M.classify(paramType(7)), TypeRole::None)
      << "a range of records holding nothing modelled is not modelled";
  EXPECT_EQ(M.classify(paramType(8)), TypeRole::None)
      << "the holder itself is not a range";
  const CXXRecordDecl *Held = M.heldRecordOf(paramType(6));
  ASSERT_NE(Held, nullptr);
  EXPECT_EQ(Held->getName(), "Entry");
  llvm::ArrayRef<const FieldDecl *> Fields = M.heldFields(Held);
  ASSERT_EQ(Fields.size(), 1u) << "a pointer field is not held by value";
  EXPECT_EQ(Fields[0]->getName(), "array");
  EXPECT_EQ(M.heldRecordOf(paramType(4)), nullptr);
}

TEST_F(ModelOnCode, ClassifiesFunctionsByQualifiedName) {
  ApiModel M{ApiModelOptions()};
  EXPECT_TRUE(M.classify(function("to_dlpack")).has(FnRole::Export));
  FnRoles Import = M.classify(function("from_dlpack"));
  EXPECT_TRUE(Import.has(FnRole::Import));
  EXPECT_TRUE(Import.has(FnRole::SingleDeviceProducer))
      << "one function can play several roles";
  EXPECT_TRUE(M.classify(function("is_single_device"))
                  .has(FnRole::SingleDevicePredicate));
  EXPECT_TRUE(M.classify(function("local_devices"))
                  .has(FnRole::AddressableDeviceSource));
  EXPECT_TRUE(M.classify(function("use")).empty());
  EXPECT_TRUE(M.classify(nullptr).empty());
}

TEST_F(ModelOnCode, MembersOfClassTemplatesAreNamedThroughTheTemplate) {
  auto Found = match(cxxMethodDecl(hasName("value"),
                                   ofClass(classTemplateSpecializationDecl()))
                         .bind("m"),
                     AST->getASTContext());
  ASSERT_FALSE(Found.empty());
  EXPECT_EQ(listedName(*Found[0].getNodeAs<NamedDecl>("m")),
            "interop::Result::value");
}

TEST_F(ModelOnCode, OptionsReplaceTheDefaultNames) {
  ApiModelOptions O;
  O.ExportFunctions = "::interop::gather";
  O.PinnedHostMemoryKinds = "::mine::kPinned";
  ApiModel M(O);
  EXPECT_FALSE(M.classify(function("to_dlpack")).has(FnRole::Export));
  EXPECT_TRUE(M.classify(function("gather")).has(FnRole::Export));
  auto E = match(enumConstantDecl(hasName("kPinned")).bind("e"),
                 AST->getASTContext());
  ASSERT_EQ(E.size(), 1u);
  const auto *K = E[0].getNodeAs<EnumConstantDecl>("e");
  EXPECT_TRUE(M.isPinnedHostMemoryKind(K))
      << "unscoped enumerators are also named without their enum";
  EXPECT_TRUE(M.isMemoryKindEnum(K->getType()));
  EXPECT_FALSE(M.isDeviceMemoryKind(K));
  O.DeviceMemoryKinds = "::mine::kOther";
  auto Other = match(enumConstantDecl(hasName("kOther")).bind("e"),
                     AST->getASTContext());
  ASSERT_EQ(Other.size(), 1u);
  EXPECT_TRUE(ApiModel(O).isDeviceMemoryKind(
      Other[0].getNodeAs<EnumConstantDecl>("e")));
  EXPECT_EQ(M.names(FnRole::Export).size(), 1u);
  EXPECT_EQ(M.names(FnRole::Export)[0], "interop::gather");
}

TEST_F(ModelOnCode, EntriesMayBeRegexes) {
  ApiModelOptions O;
  O.ImportFunctions = "::interop::from_dlpack$";
  O.ExportFunctions = "::interop::to_dl.*";
  O.ArrayTypes = "::interop::Arr(ay)$";
  ApiModel M(O);
  EXPECT_TRUE(M.classify(function("from_dlpack")).has(FnRole::Import));
  EXPECT_TRUE(M.classify(function("to_dlpack")).has(FnRole::Export));
  EXPECT_FALSE(M.classify(function("gather")).has(FnRole::Export));
  EXPECT_EQ(M.classify(paramType(3)), TypeRole::Array);
  EXPECT_TRUE(M.names(FnRole::Export).empty())
      << "patterns have no name to show in a diagnostic";
}

} // namespace
