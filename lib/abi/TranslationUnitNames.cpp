//===--- TranslationUnitNames.cpp - does a TU spell DLPack at all ---------===//

#include "lib/abi/TranslationUnitNames.h"

namespace clang::interop {

bool translationUnitMayUseDLPack(const ASTContext &Ctx) {
  if (Ctx.getExternalSource())
    return true;
  // Every name classifyDLPackRecordName and the capsule calls that give a
  // function a DLPack role (classifyCapsuleCall) recognise.
  static const char *const Names[] = {"DLTensor",
                                      "DLManagedTensor",
                                      "DLManagedTensorVersioned",
                                      "DLDevice",
                                      "DLDeviceType",
                                      "DLContext",
                                      "DLDataType",
                                      "DLPackVersion",
                                      "PyCapsule_New",
                                      "PyCapsule_GetPointer",
                                      "PyCapsule_GetName",
                                      "PyCapsule_SetName",
                                      "PyCapsule_SetDestructor",
                                      "PyCapsule_IsValid"};
  for (const char *Name : Names)
    if (Ctx.Idents.find(Name) != Ctx.Idents.end())
      return true;
  return false;
}

} // namespace clang::interop
