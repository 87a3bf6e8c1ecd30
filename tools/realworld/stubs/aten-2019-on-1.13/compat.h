// Self-written stand-in (first-contact-6): ATen of 2019 passed a
// tensor's type object as `const at::Type&` (Tensor::type()); the installed
// PyTorch 1.13 headers only forward-declare at::Type and return
// at::DeprecatedTypeProperties from Tensor::type(). This minimal Type converts
// from it and answers is_cuda(), the one member DLConvertor.cpp uses.
#pragma once
#include <ATen/core/DeprecatedTypeProperties.h>
namespace at {
struct Type {
  Type(const DeprecatedTypeProperties& p) : cuda_(p.is_cuda()) {}
  bool is_cuda() const { return cuda_; }
  bool cuda_;
};
} // namespace at
