// Status, Result and the dtype table.
#include "test_util.h"

namespace itest {
namespace {

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.to_string(), "OK");
}

TEST(Status, CodesNamePythonExceptions) {
  EXPECT_STREQ(python_exception_name(StatusCode::kBufferError), "BufferError");
  EXPECT_STREQ(python_exception_name(StatusCode::kValueError), "ValueError");
  EXPECT_STREQ(python_exception_name(StatusCode::kTypeError), "TypeError");
  EXPECT_STREQ(python_exception_name(StatusCode::kRuntimeError),
               "RuntimeError");
  EXPECT_STREQ(python_exception_name(StatusCode::kAttributeError),
               "AttributeError");
  EXPECT_STREQ(python_exception_name(StatusCode::kInvalidArgument),
               "ValueError");
  EXPECT_STREQ(python_exception_name(StatusCode::kResourceExhausted),
               "MemoryError");
  EXPECT_STREQ(python_exception_name(StatusCode::kInternal), "RuntimeError");
  EXPECT_EQ(python_exception_name(StatusCode::kOk), nullptr);
  EXPECT_EQ(Status(StatusCode::kBufferError, "x").to_string(),
            "BufferError: x");
}

TEST(Result, ValueAndError) {
  Result<int> good(3);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 3);
  EXPECT_TRUE(good.status().ok());
  Result<int> bad(Status(StatusCode::kValueError, "nope"));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "nope");
}

TEST(Result, OkStatusWithoutValueBecomesInternal) {
  Result<int> r{Status()};
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
}

TEST(ResultDeathTest, ValueOfErrorAborts) {
  Result<int> bad(Status(StatusCode::kValueError, "boom"));
  EXPECT_DEATH((void)bad.value(), "value\\(\\) of a failed Result: "
                                  "ValueError: boom");
}

TEST(DType, SupportedTypes) {
  EXPECT_EQ(dtype_size(kFloat32), 4u);
  EXPECT_EQ(dtype_size(kBool), 1u);
  EXPECT_EQ(dtype_size(kBFloat16), 2u);
  EXPECT_EQ(dtype_size(kComplex128), 16u);
  EXPECT_EQ(dtype_size(kFloat8E5M2), 1u);
  EXPECT_EQ(dtype_name(kBool), "bool");
  EXPECT_EQ(dtype_name(kBFloat16), "bfloat16");
  EXPECT_EQ(dtype_name(kFloat8E4M3FN), "float8_e4m3fn");
  EXPECT_EQ(dtype_name(DLDataType{dl::kFloat8_e8m0fnu, 8, 1}),
            "float8_e8m0fnu");
  for (uint8_t code = dl::kFloat8_e3m4; code <= dl::kFloat8_e8m0fnu; ++code)
    EXPECT_TRUE(check_dtype(DLDataType{code, 8, 1}).ok()) << int(code);
  EXPECT_TRUE(same_dtype(kFloat32, DLDataType{dl::kFloat, 32, 1}));
}

TEST(DType, RejectsLanesAndOddWidths) {
  EXPECT_STATUS(check_dtype(DLDataType{dl::kFloat, 32, 4}),
                StatusCode::kInvalidArgument,
                "Unsupported DLPack tensor dtype: lanes should be equal to 1, "
                "got 4");
  EXPECT_STATUS(check_dtype(DLDataType{dl::kFloat4_e2m1fn, 4, 1}),
                StatusCode::kInvalidArgument,
                "Unsupported DLPack tensor dtype: bits should be a multiple of "
                "8, got 4 (type code 17)");
  EXPECT_STATUS(check_dtype(DLDataType{dl::kFloat, 8, 1}),
                StatusCode::kInvalidArgument,
                "Unsupported DLPack tensor dtype: type code 2 with 8 bits");
  EXPECT_STATUS(check_dtype(DLDataType{dl::kOpaqueHandle, 64, 1}),
                StatusCode::kInvalidArgument,
                "Unsupported DLPack tensor dtype: type code 3 with 64 bits");
  EXPECT_STATUS(check_dtype(DLDataType{dl::kBool, 1, 1}),
                StatusCode::kInvalidArgument,
                "Unsupported DLPack tensor dtype: bits should be a multiple of "
                "8, got 1 (type code 6)");
  EXPECT_EQ(dtype_size(DLDataType{dl::kFloat, 32, 2}), 0u);
  EXPECT_EQ(dtype_name(DLDataType{dl::kFloat, 32, 2}),
            "dtype(code=2, bits=32, lanes=2)");
}

} // namespace
} // namespace itest
