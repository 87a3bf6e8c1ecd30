// Unit tests of lib/abi/DLPackTypes.h and DLPackFields.h: the DLPack C ABI
// recognised by names, whatever header declares it.

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(DLPackTypes, RecordsByName) {
  EXPECT_EQ(classifyDLPackRecordName("DLTensor"), DLPackRecord::Tensor);
  EXPECT_EQ(classifyDLPackRecordName("DLContext"), DLPackRecord::Device);
  EXPECT_EQ(classifyDLPackRecordName("DLManagedTensorVersioned"),
            DLPackRecord::ManagedTensorVersioned);
  EXPECT_EQ(classifyDLPackRecordName("Tensor"), DLPackRecord::None);
  EXPECT_TRUE(isManagedTensor(DLPackRecord::ManagedTensor));
  EXPECT_FALSE(isManagedTensor(DLPackRecord::Tensor));
  EXPECT_EQ(managedTensorName(DLPackRecord::ManagedTensorVersioned),
            "DLManagedTensorVersioned");
  EXPECT_EQ(managedTensorName(DLPackRecord::ManagedTensor), "DLManagedTensor");
}

TEST(DLPackTypes, TaggedRecordsByTheirTypedef) {
  // A copy of the header whose structs carry a tag of their own; a record
  // another typedef names, or whose tag only starts like one, is not one.
  auto AST = parseWithInputs(R"cpp(
typedef struct DLDevice_ { int device_type; int device_id; } DLDevice;
typedef struct DLTensor_ { void *data; DLDevice device; } DLTensor;
struct DLOther { int x; };
typedef struct DLOther Unrelated;
typedef struct DLDevice2_ { int device_type; } DLDevicePair;
namespace ns {
typedef struct DLDataType_ { unsigned char code; } DLDataType;
}
int f(DLDevice d, const DLTensor &t, DLOther o, DLDevicePair p,
      ns::DLDataType k) {
  return d.device_id + t.device.device_id + o.x + p.device_type + k.code;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  auto Kind = [&](unsigned I) {
    return classifyDLPackType(F->getParamDecl(I)->getType());
  };
  EXPECT_EQ(Kind(0), DLPackRecord::Device);
  EXPECT_EQ(Kind(1), DLPackRecord::Tensor);
  EXPECT_EQ(Kind(2), DLPackRecord::None);
  EXPECT_EQ(Kind(3), DLPackRecord::None);
  EXPECT_EQ(Kind(4), DLPackRecord::DataType);
  // The canonical record, as the dataflow framework hands it over.
  EXPECT_EQ(
      classifyDLPackRecord(F->getParamDecl(0)->getType()->getAsRecordDecl()),
      DLPackRecord::Device);
}

TEST(DLPackTypes, ManagedTensorsByTheirLayout) {
  // A project's own copy of the managed tensor: a self-taking deleter and a
  // context, `manager_ctx` or, renamed, a `void *` beside a tensor layout.
  // A self-deleting record with user data but no tensor is none.
  auto AST = parseWithInputs(R"cpp(
struct own_tensor { void *data; int dimensions; long *shape; long *strides; };
struct nb_managed {
  own_tensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(nb_managed *);
};
struct renamed {
  own_tensor tensor;
  void *manager_context;
  void (*deleter)(renamed *);
};
struct renamed_versioned {
  struct { unsigned major, minor; } version;
  void *ctx;
  void (*deleter)(renamed_versioned *);
  unsigned long long flags;
  own_tensor dl_tensor;
};
struct job { void *user_data; int id; void (*deleter)(job *); };
struct other_deleter { own_tensor t; void *ctx; void (*deleter)(void *); };
int f(nb_managed a, renamed b, renamed_versioned c, job d, other_deleter e) {
  return 0;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  auto Kind = [&](unsigned I) {
    return classifyDLPackType(F->getParamDecl(I)->getType());
  };
  EXPECT_EQ(Kind(0), DLPackRecord::ManagedTensor);
  EXPECT_EQ(Kind(1), DLPackRecord::ManagedTensor);
  EXPECT_EQ(Kind(2), DLPackRecord::ManagedTensorVersioned);
  EXPECT_EQ(Kind(3), DLPackRecord::None);
  EXPECT_EQ(Kind(4), DLPackRecord::None);
}

TEST(DLPackTypes, TypesFieldsAndDeviceTypes) {
  // C's anonymous struct named by a typedef, references and pointers.
  auto AST = parseWithInputs(R"cpp(
typedef struct { void *data; int ndim; } DLTensor;
typedef struct { int device_type; int device_id; } DLDevice;
enum DLDeviceType { kDLCPU = 1, kDLCUDA = 2 };
int f(const DLTensor &t, DLTensor *p, DLDevice d, DLDeviceType k) {
  int local = d.device_type;
  return t.ndim + (p->data != 0) + local + k;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  EXPECT_EQ(classifyDLPackType(F->getParamDecl(0)->getType()),
            DLPackRecord::Tensor);
  EXPECT_EQ(classifyDLPackType(F->getParamDecl(1)->getType()),
            DLPackRecord::None);
  EXPECT_EQ(classifyDLPackPointee(F->getParamDecl(1)->getType()),
            DLPackRecord::Tensor);
  EXPECT_TRUE(isDLDeviceTypeEnum(F->getParamDecl(3)->getType()));
  const auto *NDim =
      firstNode<MemberExpr>(F->getBody(), [](const MemberExpr &M) {
        return M.getMemberDecl()->getName() == "ndim";
      });
  ASSERT_TRUE(NDim);
  EXPECT_EQ(dlpackFieldOfMember(NDim), DLPackField::NDim);
  EXPECT_EQ(dlpackFieldName(DLPackField::ByteOffset), "byte_offset");
  // A local initialised from the field reads the device type too.
  const auto *Ret = firstNode<ReturnStmt>(F->getBody());
  const auto *Local = firstNode<DeclRefExpr>(Ret, [](const DeclRefExpr &D) {
    return D.getDecl()->getName() == "local";
  });
  ASSERT_TRUE(Local);
  EXPECT_TRUE(readsDLPackDeviceType(Local));
}

TEST(DLPackFields, DeviceTypesByValue) {
  EXPECT_TRUE(isHostAccessibleDeviceType(1));  // kDLCPU
  EXPECT_TRUE(isHostAccessibleDeviceType(13)); // kDLCUDAManaged
  EXPECT_FALSE(isHostAccessibleDeviceType(2)); // kDLCUDA
  EXPECT_FALSE(isHostAccessibleDeviceType(99));
  EXPECT_EQ(dlpackDeviceTypeName(19), "kDLTPU");
  EXPECT_EQ(dlpackDeviceTypeName(5), "");
  EXPECT_EQ(parseDLPackDeviceType("kDLGPU"), std::optional<std::int64_t>(2));
  EXPECT_EQ(parseDLPackDeviceType(" 10 "), std::optional<std::int64_t>(10));
  EXPECT_EQ(parseDLPackDeviceType("kDLNope"), std::nullopt);
}

} // namespace
