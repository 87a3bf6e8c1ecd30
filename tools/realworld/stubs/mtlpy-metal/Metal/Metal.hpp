/* Self-written minimal declarations standing in for Apple's metal-cpp
 * (a git submodule the snapshot lacks; Metal is macOS-only). Only the
 * names mtlpy's headers and csrc/bindings.cpp use; no behaviour. */
#pragma once
#include <cstdint>

namespace NS {
template <class T> class Referencing {
public:
    T* retain();
    void release();
};
} // namespace NS

namespace MTL {
class Device : public NS::Referencing<Device> {};
class Buffer : public NS::Referencing<Buffer> { public: void* contents(); };
class BinaryArchive : public NS::Referencing<BinaryArchive> {};
class CaptureScope : public NS::Referencing<CaptureScope> {};
class CommandQueue : public NS::Referencing<CommandQueue> {};
class CommandBuffer : public NS::Referencing<CommandBuffer> {};
class ComputeCommandEncoder : public NS::Referencing<ComputeCommandEncoder> {};
class ComputePipelineState : public NS::Referencing<ComputePipelineState> {};
class Event : public NS::Referencing<Event> {};
class SharedEvent : public Event {};
class SharedEventHandle : public NS::Referencing<SharedEventHandle> {};
class Fence : public NS::Referencing<Fence> {};
class Heap : public NS::Referencing<Heap> {};
class SamplerState : public NS::Referencing<SamplerState> {};
class Texture : public NS::Referencing<Texture> {};
class Function : public NS::Referencing<Function> {};
struct Size { unsigned long width, height, depth; };
enum TextureType : unsigned long { TextureType1D = 0, TextureType2D = 2, TextureType3D = 7 };
} // namespace MTL
