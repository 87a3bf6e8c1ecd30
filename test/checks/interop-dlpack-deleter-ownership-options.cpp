// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-deleter-ownership.TensorSources: '::mylib::export_tensor$', interop-dlpack-deleter-ownership.OwnershipTakingImporters: '::mylib::adopt$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// TensorSources: calls whose returned managed tensor the caller owns.
// OwnershipTakingImporters: calls that take the tensor whatever happens, so
// deleting it afterwards is a double free.

#include <dlpack/dlpack.h>

namespace mylib {
DLManagedTensor *export_tensor(int id);
DLManagedTensor *toDLPack(int id); // no longer a source
bool adopt(DLManagedTensor *t);
bool inspect(DLManagedTensor *t);
} // namespace mylib

void leak(int id, bool fail) {
  DLManagedTensor *t = mylib::export_tensor(id);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (fail)
    return;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  t->deleter(t);
}

void not_a_source(int id, bool fail) {
  DLManagedTensor *t = mylib::toDLPack(id);
  if (fail)
    return;
  t->deleter(t);
}

void delete_after_adopt(int id) {
  DLManagedTensor *t = mylib::export_tensor(id);
  if (!mylib::adopt(t))
    t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter called after ownership of the tensor was handed on [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:8: note: ownership handed on here
}

// Any other call may or may not take the tensor: no finding either way.
void delete_after_inspect(int id) {
  DLManagedTensor *t = mylib::export_tensor(id);
  if (!mylib::inspect(t))
    t->deleter(t);
}
