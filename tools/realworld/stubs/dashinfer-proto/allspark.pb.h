/* Self-written stand-in for the protoc output of csrc/proto/allspark.proto
   (not in the snapshot: generated at build time). Enums with the values the
   .proto gives; messages reduced to the members the included headers use. */
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <istream>
#include <vector>

#include <google/protobuf/map.h>
#include <google/protobuf/message.h>
#include <google/protobuf/repeated_field.h>

namespace allspark {
enum DeviceType { DEVICETYPE_UNDEFINED = 0, CPU = 1, CUDA = 2,
                  COMPILE_TIME_MAX_DEVICE_TYPES = 3, CPU_PINNED = 4 };
enum DataMode { DENSE = 0, CSC = 1, ELL = 2 };
enum SplitMode { NOSPLIT = 0, VSPLIT = 1, HSPLIT = 2, QKVSPLIT = 3,
                 KVSPLIT = 4, HSPLIT_QUANTIZE = 5, GROUP_VSPLIT = 6,
                 MQA_VSPLIT = 7, BATCH_VSPLIT = 8, BATCH_HSPLIT = 9,
                 BATCH_KVSPLIT = 10, EPSPLIT = 11 };
enum DataType { DATATYPE_UNDEFINED = 0, FLOAT32 = 1, FLOAT16 = 2, INT8 = 3,
                INT16 = 4, INT32 = 5, INT64 = 6, STRING = 7, BOOL = 8,
                BFLOAT16 = 9, UINT8 = 10, FLOAT8E4M3 = 11, FLOAT8E5M2 = 12,
                POINTER = 20 };
enum PrecisionLevel { HIGHEST = 0, HIGH = 1, MEDIUM_BF16 = 2, MEDIUM_FP16 = 3 };
enum BinaryType { BINARYTYPE_UNDEFINED = 0, ADD = 1, MUL = 2,
                  FUSED_MUL_ADD_1 = 10, GEGLU = 11, SWIGLU = 12 };
enum UnaryType { UNARYTYPE_UNDEFINED = 0, TANH = 1, GELU_ERF = 2,
                 GELU_TANH = 3, RELU = 4, SILU = 5, SIGMOID = 6 };
enum RotaryInvFreqType { base_rotary = 0, chatglm_v2 = 1, chatglm_v3 = 2,
                         yarn = 3 };

const std::string& DeviceType_Name(DeviceType);
const std::string& DataType_Name(DataType);
const std::string& DataMode_Name(DataMode);
const std::string& SplitMode_Name(SplitMode);

#define DI_STR_FIELD(n) \
  const std::string& n() const; \
  template <typename ArgT0 = const std::string&, typename... ArgT> \
  void set_##n(ArgT0&& arg0, ArgT... args);
#define DI_NUM_FIELD(T, n) \
  T n() const; \
  void set_##n(T value);
#define DI_MESSAGE_API \
  void CopyFrom(const DI_SELF& from); \
  bool SerializeToString(std::string* output) const; \
  bool ParseFromString(const std::string& data); \
  bool ParseFromIstream(std::istream* input);

#define DI_SELF BuildVersion
class BuildVersion {
 public:
  DI_MESSAGE_API
  DI_NUM_FIELD(int32_t, major)
  DI_NUM_FIELD(int32_t, minor)
  DI_NUM_FIELD(int32_t, patch)
  DI_STR_FIELD(git_commit)
  DI_STR_FIELD(git_tag)
};
#undef DI_SELF
#define DI_SELF WeightHash
class WeightHash {
 public:
  DI_MESSAGE_API
  DI_STR_FIELD(algorithm)
  int hash_length_size() const;
  int64_t hash_length(int index) const;
  ::google::protobuf::RepeatedField<int64_t>* mutable_hash_length();
  int hash_size() const;
  const std::string& hash(int index) const;
  ::google::protobuf::RepeatedPtrField<std::string>* mutable_hash();
};
#undef DI_SELF
#define DI_SELF BuildMetaProto
class BuildMetaProto {
 public:
  DI_MESSAGE_API
  bool has_version() const;
  const BuildVersion& version() const;
  BuildVersion* mutable_version();
  bool has_weight_hash() const;
  const WeightHash& weight_hash() const;
  WeightHash* mutable_weight_hash();
  const ::google::protobuf::Map<std::string, std::string>& torch_build_config()
      const;
  ::google::protobuf::Map<std::string, std::string>*
  mutable_torch_build_config();
};
#undef DI_SELF
#define DI_SELF ConfigProto
class ConfigProto {
 public:
  DI_MESSAGE_API
  DI_NUM_FIELD(DataType, dtype)
  DI_NUM_FIELD(float, ln_eps)
  DI_NUM_FIELD(int32_t, num_heads)
  DI_NUM_FIELD(bool, with_weights)
  DI_NUM_FIELD(int32_t, enc_layer)
  DI_NUM_FIELD(int32_t, dec_layer)
  DI_NUM_FIELD(bool, is_generate)
  DI_NUM_FIELD(int64_t, start_dec_id)
  DI_NUM_FIELD(int64_t, end_dec_id)
  DI_NUM_FIELD(int32_t, num_beam)
  DI_NUM_FIELD(int64_t, data_mode)
  DI_NUM_FIELD(UnaryType, activation)
  DI_NUM_FIELD(int32_t, d_model)
  DI_NUM_FIELD(int32_t, enc_num_heads)
  DI_NUM_FIELD(int32_t, dec_num_heads)
  DI_NUM_FIELD(int32_t, multi_query_group_num)
  DI_NUM_FIELD(int32_t, kv_channels)
  DI_NUM_FIELD(int32_t, size_per_head)
  DI_NUM_FIELD(int32_t, hidden_size)
  DI_NUM_FIELD(int32_t, num_experts)
  DI_NUM_FIELD(int32_t, num_experts_per_tok)
  DI_NUM_FIELD(int32_t, intermediate_size)
};
#undef DI_SELF
#define DI_SELF TensorProto
class TensorProto {
 public:
  DI_MESSAGE_API
  DI_STR_FIELD(name)
  DI_STR_FIELD(data)
};
#undef DI_SELF
#define DI_SELF OperatorProto
class OperatorProto {
 public:
  DI_MESSAGE_API
  DI_STR_FIELD(op_type)
  DI_STR_FIELD(op_name)
  const ::google::protobuf::Map<std::string, std::string>& attr() const;
  ::google::protobuf::Map<std::string, std::string>* mutable_attr();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& inputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_inputs();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& outputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_outputs();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& weights() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_weights();
};
#undef DI_SELF
#define DI_SELF GraphProto
class GraphProto {
 public:
  DI_MESSAGE_API
  const ::google::protobuf::RepeatedPtrField<TensorProto>& inputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_inputs();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& outputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_outputs();
  const ::google::protobuf::RepeatedPtrField<OperatorProto>& ops() const;
  ::google::protobuf::RepeatedPtrField<OperatorProto>* mutable_ops();
};
#undef DI_SELF
#define DI_SELF TransformerProto
class TransformerProto : public ::google::protobuf::Message {
 public:
  ::google::protobuf::Metadata GetMetadata() const override;
  TransformerProto* New(::google::protobuf::Arena* arena) const override;
  int GetCachedSize() const override;
  DI_MESSAGE_API
  DI_STR_FIELD(model_type)
  const ConfigProto& model_conf() const;
  ConfigProto* mutable_model_conf();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& inputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_inputs();
  const ::google::protobuf::RepeatedPtrField<TensorProto>& outputs() const;
  ::google::protobuf::RepeatedPtrField<TensorProto>* mutable_outputs();
  const ::google::protobuf::Map<std::string, TensorProto>& weights() const;
  ::google::protobuf::Map<std::string, TensorProto>* mutable_weights();
  const ::google::protobuf::Map<std::string, GraphProto>& graphs() const;
  ::google::protobuf::Map<std::string, GraphProto>* mutable_graphs();
  const ::google::protobuf::RepeatedPtrField<std::string>& graph_names() const;
  ::google::protobuf::RepeatedPtrField<std::string>* mutable_graph_names();
  const BuildMetaProto& build_meta() const;
  BuildMetaProto* mutable_build_meta();
};
#undef DI_SELF
}  // namespace allspark
