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
