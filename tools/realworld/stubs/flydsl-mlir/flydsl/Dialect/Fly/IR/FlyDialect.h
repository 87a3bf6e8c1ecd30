/* Self-written minimal declaration stub for the real-world harness (ROCm/FlyDSL
 * lib/Bindings/Python/DLTensorAdaptor.h): MLIR and the TableGen-generated Fly
 * dialect are not available here. Only names the adaptor declares members with. */
#pragma once
#include <cstdint>
#include <mlir/IR/MLIRContext.h>
namespace mlir {
namespace fly {
class IntTupleAttr {
public:
  static IntTupleAttr getLeafDynamic(MLIRContext *ctx, int width, int32_t divisibility);
  static IntTupleAttr getLeafStatic(MLIRContext *ctx, int64_t value);
};
}
}
