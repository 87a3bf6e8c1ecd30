/* Self-written minimal declaration stub for the real-world harness (ROCm/FlyDSL
 * lib/Bindings/Python/DLTensorAdaptor.h): MLIR and the TableGen-generated Fly
 * dialect are not available here. Only names the adaptor declares members with. */
#pragma once
namespace mlir { class MLIRContext; }
