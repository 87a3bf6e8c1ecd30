// Self-written forwarder (first-contact-11): torch_tvm of 2019 compiled against the installed
// PyTorch 1.13 headers, where the 2019 header torch/csrc/jit/ir.h is now torch/csrc/jit/ir/ir.h.
#pragma once
#include <torch/csrc/jit/ir/ir.h>
