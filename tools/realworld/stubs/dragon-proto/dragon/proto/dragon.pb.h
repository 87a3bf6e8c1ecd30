// Self-written stand-in for the protoc-generated dragon/proto/dragon.pb.h
// (not in the snapshot): only the declarations the DLPack bridge needs.
#pragma once
#include <cstdint>
namespace dragon {
enum DeviceTypeProto { PROTO_CPU = 0, PROTO_CUDA = 1, PROTO_MPS = 2, PROTO_MLU = 3 };
class DeviceOption {
 public:
  DeviceTypeProto device_type() const;
  int32_t device_id() const;
  bool has_random_seed() const;
  uint32_t random_seed() const;
};
}  // namespace dragon
