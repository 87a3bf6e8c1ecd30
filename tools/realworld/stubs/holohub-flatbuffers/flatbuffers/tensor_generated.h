/* Minimal self-written stand-in for the header flatc generates from holohub's
   applications/pipeline_visualization/schemas/tensor.fbs (not in the
   snapshot; FlatBuffers is not installed here): the FlatBuffers builder
   calls and schema types create_tensor.cpp uses, as declarations. Enum
   values are prefixed with their type name, as flatc does by default. */
#ifndef REALWORLD_STUB_TENSOR_GENERATED_H
#define REALWORLD_STUB_TENSOR_GENERATED_H
#include <cstddef>
#include <cstdint>
#include <vector>
namespace flatbuffers {
template <typename T> struct Offset {
  uint32_t o;
  Offset();
  Offset(uint32_t off);
};
template <typename T> class Vector;
class FlatBufferBuilder {
 public:
  template <typename T> Offset<Vector<T>> CreateVector(const T *v, size_t len);
  template <typename T> Offset<Vector<T>> CreateVector(const std::vector<T> &v);
  template <typename T> Offset<Vector<T>> CreateUninitializedVector(size_t len, T **buf);
};
}  // namespace flatbuffers
namespace pipeline_visualization {
namespace flatbuffers {
enum DLDataTypeCode : uint8_t {
  DLDataTypeCode_kDLInt = 0, DLDataTypeCode_kDLUInt = 1, DLDataTypeCode_kDLFloat = 2
};
enum DLDeviceType : int32_t {
  DLDeviceType_kDLUnknown = 0, DLDeviceType_kDLCPU = 1, DLDeviceType_kDLCUDA = 2,
  DLDeviceType_kDLCUDAHost = 3, DLDeviceType_kDLCUDAManaged = 13
};
struct DLDataType {
  DLDataType(DLDataTypeCode code, uint8_t bits, uint16_t lanes);
};
struct DLDevice {
  DLDevice(DLDeviceType device_type, int32_t device_id);
};
struct Tensor;
::flatbuffers::Offset<Tensor> CreateTensor(
    ::flatbuffers::FlatBufferBuilder &fbb,
    ::flatbuffers::Offset<::flatbuffers::Vector<uint8_t>> data = 0,
    ::flatbuffers::Offset<::flatbuffers::Vector<int64_t>> shape = 0,
    const DLDataType *dtype = nullptr, const DLDevice *device = nullptr, uint32_t ndim = 0,
    ::flatbuffers::Offset<::flatbuffers::Vector<int64_t>> strides = 0);
}  // namespace flatbuffers
}  // namespace pipeline_visualization
#endif
