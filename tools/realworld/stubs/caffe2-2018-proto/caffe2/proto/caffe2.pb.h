/* Self-written minimal declarations standing in for the protoc-generated
 * caffe2/proto/caffe2.pb.h (not in the facebookarchive/caffe2 snapshot):
 * only the names caffe2/core/{context,event,logging,tensor,types}.h and
 * caffe2/python/pybind_state_dlpack.h use. Not the generated code. */
#pragma once
#include <cstdint>
#include <string>

namespace caffe2 {

enum DeviceType {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  COMPILE_TIME_MAX_DEVICE_TYPES = 7,
  ONLY_FOR_TEST = 20901701
};

class DeviceOption {
 public:
  int device_type() const { return device_type_; }
  void set_device_type(int v) { device_type_ = v; }
  int cuda_gpu_id() const { return cuda_gpu_id_; }
  void set_cuda_gpu_id(int v) { cuda_gpu_id_ = v; }
  bool has_random_seed() const { return false; }
  uint32_t random_seed() const { return 0; }
  int numa_node_id() const { return -1; }
  bool has_numa_node_id() const { return false; }
  const std::string& node_name() const { return node_name_; }

 private:
  int device_type_ = 0;
  int cuda_gpu_id_ = 0;
  std::string node_name_;
};

class TensorProto {
 public:
  enum DataType {
    UNDEFINED = 0,
    FLOAT = 1,
    INT32 = 2,
    BYTE = 3,
    STRING = 4,
    BOOL = 5,
    UINT8 = 6,
    INT8 = 7,
    UINT16 = 8,
    INT16 = 9,
    INT64 = 10,
    FLOAT16 = 12,
    DOUBLE = 13
  };
};

class OperatorDef;
class NetDef;
class Argument;
class BlobProto;
class TensorShape;

}  // namespace caffe2
