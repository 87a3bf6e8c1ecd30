// Unit tests of lib/abi/DLPackFields.h: DLPack fields recognised by their
// record's and their own name in every generation of dlpack.h, device types
// by raw value, and the expressions that read a device type.

#include "lib/abi/DLPackFields.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// The field Field of the record Record in Ctx.
const FieldDecl *fieldOf(ASTContext &Ctx, llvm::StringRef Record,
                         llvm::StringRef Field) {
  using namespace clang::ast_matchers;
  // C headers name a record by a typedef of an anonymous struct.
  for (const BoundNodes &N : match(recordDecl(isDefinition()).bind("r"), Ctx)) {
    const auto *RD = N.getNodeAs<RecordDecl>("r");
    llvm::StringRef Name = RD->getName();
    if (Name.empty())
      if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
        Name = TD->getName();
    if (Name != Record)
      continue;
    for (const FieldDecl *F : RD->fields())
      if (F->getName() == Field)
        return F;
  }
  ADD_FAILURE() << "no field " << Record.str() << "::" << Field.str();
  return nullptr;
}

TEST(DLPackFields, EveryFieldOfTheOneXHeader) {
  auto AST = parseWithInputs("#include <dlpack/dlpack.h>\n");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  struct Case {
    const char *Record, *Field;
    DLPackField Want;
    DLPackRecord Owner;
  } Cases[] = {
      {"DLTensor", "data", DLPackField::Data, DLPackRecord::Tensor},
      {"DLTensor", "device", DLPackField::Device, DLPackRecord::Tensor},
      {"DLTensor", "ndim", DLPackField::NDim, DLPackRecord::Tensor},
      {"DLTensor", "dtype", DLPackField::DType, DLPackRecord::Tensor},
      {"DLTensor", "shape", DLPackField::Shape, DLPackRecord::Tensor},
      {"DLTensor", "strides", DLPackField::Strides, DLPackRecord::Tensor},
      {"DLTensor", "byte_offset", DLPackField::ByteOffset,
       DLPackRecord::Tensor},
      {"DLDevice", "device_type", DLPackField::DeviceType,
       DLPackRecord::Device},
      {"DLDevice", "device_id", DLPackField::DeviceId, DLPackRecord::Device},
      {"DLManagedTensor", "dl_tensor", DLPackField::DLTensor,
       DLPackRecord::ManagedTensor},
      {"DLManagedTensor", "manager_ctx", DLPackField::ManagerCtx,
       DLPackRecord::ManagedTensor},
      {"DLManagedTensor", "deleter", DLPackField::Deleter,
       DLPackRecord::ManagedTensor},
      {"DLManagedTensorVersioned", "version", DLPackField::Version,
       DLPackRecord::ManagedTensorVersioned},
      {"DLManagedTensorVersioned", "flags", DLPackField::Flags,
       DLPackRecord::ManagedTensorVersioned},
      {"DLManagedTensorVersioned", "dl_tensor", DLPackField::DLTensor,
       DLPackRecord::ManagedTensorVersioned},
      {"DLPackVersion", "major", DLPackField::Major, DLPackRecord::PackVersion},
      {"DLPackVersion", "minor", DLPackField::Minor, DLPackRecord::PackVersion},
  };
  for (const Case &C : Cases) {
    const FieldDecl *F = fieldOf(Ctx, C.Record, C.Field);
    if (!F)
      continue;
    EXPECT_EQ(classifyDLPackField(F), C.Want) << C.Record << "::" << C.Field;
    EXPECT_EQ(dlpackOwnerOf(F), C.Owner) << C.Record << "::" << C.Field;
    // The diagnostics' spelling is the field's own.
    EXPECT_EQ(dlpackFieldName(C.Want), C.Field);
  }
  // Fields the analyses do not track.
  EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "DLDataType", "bits")),
            DLPackField::None);
  EXPECT_EQ(classifyDLPackField(nullptr), DLPackField::None);
  EXPECT_EQ(dlpackOwnerOf(nullptr), DLPackRecord::None);
  EXPECT_EQ(dlpackFieldName(DLPackField::None), "");
}

TEST(DLPackFields, OlderHeadersAndLookAlikes) {
  // 0.x calls the device `ctx` and its record DLContext, and 0.1 named the
  // managed tensor's fields dlTensor, ctx and destructor; a record of
  // another name with the same fields is no DLPack record.
  auto AST = parseWithInputs(R"cpp(
typedef struct { int device_type; int device_id; } DLContext;
typedef struct { void *data; DLContext ctx; int ndim; } DLTensor;
struct MyTensor { void *data; int ndim; long *strides; };
struct DLManagedTensor {
  DLTensor dlTensor;
  void *ctx;
  void (*destructor)(DLManagedTensor *self);
  int version;
};
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "DLTensor", "ctx")),
            DLPackField::Device);
  EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "DLContext", "device_type")),
            DLPackField::DeviceType);
  EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "MyTensor", "data")),
            DLPackField::None);
  EXPECT_EQ(dlpackOwnerOf(fieldOf(Ctx, "MyTensor", "strides")),
            DLPackRecord::None);
  // The name is read against the record it is in: `version` of a legacy
  // managed tensor is still the field of that name.
  EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "DLManagedTensor", "version")),
            DLPackField::Version);
  for (auto [Name, Field] : {std::pair("dlTensor", DLPackField::DLTensor),
                             std::pair("ctx", DLPackField::ManagerCtx),
                             std::pair("destructor", DLPackField::Deleter)})
    EXPECT_EQ(classifyDLPackField(fieldOf(Ctx, "DLManagedTensor", Name)),
              Field)
        << Name;
}

TEST(DLPackFields, MemberExpressions) {
  auto AST = parseWithInputs(R"cpp(#include <dlpack/dlpack.h>
struct Other { void *data; };
long f(DLManagedTensor *mt, Other o, const DLTensor &t) {
  long a = (mt->dl_tensor).ndim;
  long b = (long)o.data;
  long c = (t.byte_offset);
  return a + b + c;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  ASSERT_NE(F, nullptr);
  auto Member = [&](llvm::StringRef Name) {
    return firstNode<MemberExpr>(F->getBody(), [&](const MemberExpr &M) {
      return M.getMemberDecl()->getName() == Name;
    });
  };
  EXPECT_EQ(dlpackFieldOfMember(Member("ndim")), DLPackField::NDim);
  EXPECT_EQ(dlpackFieldOfMember(Member("dl_tensor")), DLPackField::DLTensor);
  EXPECT_EQ(dlpackFieldOfMember(Member("data")), DLPackField::None);
  // Parentheses are looked through; anything else is not a member.
  const auto *Paren =
      firstNode<ParenExpr>(F->getBody(), [](const ParenExpr &P) {
        return isa<MemberExpr>(P.getSubExpr()) &&
               cast<MemberExpr>(P.getSubExpr())->getMemberDecl()->getName() ==
                   "byte_offset";
      });
  ASSERT_NE(Paren, nullptr);
  EXPECT_EQ(dlpackFieldOfMember(Paren), DLPackField::ByteOffset);
  EXPECT_EQ(dlpackFieldOfMember(nullptr), DLPackField::None);
  EXPECT_EQ(dlpackFieldOfMember(firstNode<DeclRefExpr>(F->getBody())),
            DLPackField::None);
}

TEST(DLPackFields, DeviceTypeNamesAndValues) {
  // Every value with a name parses back to itself.
  for (std::int64_t V = 0; V <= 30; ++V) {
    llvm::StringRef Name = dlpackDeviceTypeName(V);
    if (Name.empty())
      continue;
    EXPECT_EQ(parseDLPackDeviceType(Name), std::optional<std::int64_t>(V))
        << Name.str();
  }
  EXPECT_EQ(dlpackDeviceTypeName(2), "kDLCUDA");
  EXPECT_EQ(dlpackDeviceTypeName(0), "");
  EXPECT_EQ(dlpackDeviceTypeName(22), "");
  // 0.x spellings of the same values.
  EXPECT_EQ(parseDLPackDeviceType("kDLCPUPinned"),
            std::optional<std::int64_t>(3));
  EXPECT_EQ(parseDLPackDeviceType("-1"), std::optional<std::int64_t>(-1));
  EXPECT_EQ(parseDLPackDeviceType("kdlcpu"), std::nullopt);
  // Host-accessible: the pinned and managed host kinds, not the devices.
  for (std::int64_t V : {1, 3, 11, 13, 20})
    EXPECT_TRUE(isHostAccessibleDeviceType(V)) << V;
  for (std::int64_t V : {0, 2, 4, 7, 8, 10, 12, 19, 21, -1})
    EXPECT_FALSE(isHostAccessibleDeviceType(V)) << V;
}

TEST(DLPackFields, ExpressionsThatReadADeviceType) {
  auto AST = parseWithInputs(R"cpp(#include <dlpack/dlpack.h>
int type_of(DLDevice d);
bool on_host(DLDevice d);
int id_of(int);
struct Wrapper { DLDeviceType kind; };
void f(const DLTensor *t, DLDevice d, Wrapper w, int n) {
  int direct = t->device.device_type;
  int through_local = direct;
  int by_reader = type_of(d);
  bool by_predicate = on_host(d);
  int other = t->device.device_id;
  int by_other_reader = id_of(n);
  int by_enum = w.kind;
  (void)(direct + through_local + by_reader + by_predicate + other +
         by_other_reader + by_enum);
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  ASSERT_NE(F, nullptr);
  auto Reads = [&](llvm::StringRef Var) {
    const auto *D = firstNode<DeclStmt>(F->getBody(), [&](const DeclStmt &S) {
      const auto *V = dyn_cast<VarDecl>(S.getSingleDecl());
      return V && V->getName() == Var;
    });
    if (!D) {
      ADD_FAILURE() << "no " << Var.str();
      return false;
    }
    return readsDLPackDeviceType(cast<VarDecl>(D->getSingleDecl())->getInit());
  };
  EXPECT_TRUE(Reads("direct"));
  EXPECT_TRUE(Reads("through_local"));
  EXPECT_TRUE(Reads("by_reader"));
  EXPECT_TRUE(Reads("by_enum"));
  // A bool of a device is a predicate, not its type; other fields and
  // readers of other things read no device type.
  EXPECT_FALSE(Reads("by_predicate"));
  EXPECT_FALSE(Reads("other"));
  EXPECT_FALSE(Reads("by_other_reader"));
  EXPECT_FALSE(readsDLPackDeviceType(nullptr));
}

// Empty text (or only blanks) is no device type: the name loop must not
// match it with the empty name dlpackDeviceTypeName() gives an unnamed
// value (it returned 5).
TEST(DLPackFields, EmptyTextIsNoDeviceType) {
  EXPECT_EQ(parseDLPackDeviceType(""), std::nullopt);
  EXPECT_EQ(parseDLPackDeviceType("  "), std::nullopt);
}

} // namespace
