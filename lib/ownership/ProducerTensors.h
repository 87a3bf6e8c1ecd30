//===--- ProducerTensors.h - what a producer's tensor owns ------*- C++ -*-===//
//
// A producer that allocates a managed tensor promises two things through
// it: the consumer's one call of the deleter frees the struct, and until
// then the struct keeps its data alive (through manager_ctx, or because the
// deleter releases the data itself). Both are read on the producer's side,
// from the allocation (`new DLManagedTensor{dl, ctx, deleter}`, `new
// DLManagedTensor` or a malloc'd one and the stores into its fields) and
// the visible body of the deleter it installs:
//
//   - a deleter that uses its argument only to reach fields never frees the
//     struct: every export leaks it (lmdeploy's `[](DLManagedTensor *) {}`);
//   - with manager_ctx NULL and a deleter that touches neither manager_ctx
//     nor `data`, nothing the tensor owns keeps the data alive: a consumer
//     that outlives the data's owner reads freed memory.
//
// Deleters without a visible body, NULL deleters and tensors the function
// frees itself are left alone.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_PRODUCERTENSORS_H
#define INTEROP_LIB_OWNERSHIP_PRODUCERTENSORS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace clang::interop::ownership {

/// A managed tensor a function allocates, with what it is given.
struct ProducedTensor {
  /// The allocation (`new DLManagedTensor...`, the cast of a malloc).
  const Expr *Allocation = nullptr;
  /// The deleter installed (an initialiser or the right of a store), and
  /// the function it names (a lambda's call operator); null when none.
  const Expr *Deleter = nullptr;
  const FunctionDecl *DeleterFn = nullptr;
  /// What manager_ctx and `dl_tensor.data` are set to (null: never set,
  /// which a value-initialised or new'ed struct leaves NULL or unknown).
  const Expr *ManagerCtx = nullptr;
  const Expr *Data = nullptr;
  /// What `dl_tensor.shape` and `dl_tensor.strides` are set to by stores
  /// into the struct (null: never so).
  const Expr *Shape = nullptr;
  const Expr *Strides = nullptr;
  /// The function frees the struct itself (`delete t`, `free(t)`).
  bool FreedHere = false;
  /// The function puts the struct in a capsule (`PyCapsule_New(t, ...)`,
  /// `py::capsule(t, name, dtor)`), a DLPack export whose consumer frees it
  /// only through the deleter, and hands it to no other call (which might
  /// install the deleter).
  bool InCapsule = false;
  /// The deleter is set to NULL, or never set on a value-initialised `new`.
  bool DeleterNull = false;
  /// The function that allocates it.
  const FunctionDecl *Producer = nullptr;
};

/// The managed tensors FD's body allocates (outside its lambdas).
std::vector<ProducedTensor> producedTensors(const FunctionDecl &FD);

/// T's deleter is visible and never frees its argument, and nothing else in
/// the function frees the struct.
bool deleterKeepsStruct(const ProducedTensor &T);

/// T is put in a capsule with its deleter set to NULL (or, on a
/// value-initialised `new`, never set), and the function does not free it:
/// a consumer calls a deleter only when there is one, so nothing frees the
/// struct.
bool nullDeleterExported(const ProducedTensor &T);

/// One of a producer's pointers that nothing its tensor owns keeps alive.
struct UnkeptPointer {
  /// The store (or initialiser) of the pointer; null when there is none.
  const Expr *At = nullptr;
  /// "data", "shape" or "strides".
  const char *Field = nullptr;
  /// manager_ctx's value when it is a fresh object that holds only numbers
  /// (a struct of integers and arrays or standard containers of them: the
  /// shape and strides, a count), and perhaps pointers that nothing in the
  /// file reads; null when manager_ctx is NULL or never set.
  const Expr *NumbersContext = nullptr;
  /// The context also holds pointers that nothing reads.
  bool UnreadPointers = false;
};

/// The first of T's pointers (`data`, then `shape`, then `strides`) that
/// nothing T owns keeps alive: T's manager_ctx is NULL (or never set), or a
/// fresh object that holds only numbers (and pointers that no code of the
/// file reads, which release nothing) and that the pointer does not point
/// into, and the visible deleter touches neither that field nor (for a NULL
/// manager_ctx) manager_ctx, while the field is set to memory that is not
/// static, reached through an object the producer could have kept
/// (`tensor.data`, `vec.data()`, `this->shape.data()`, or a local that only
/// ever holds such an address; a raw address it was handed is its caller's
/// to keep).
UnkeptPointer unkeptPointer(const ProducedTensor &T);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_PRODUCERTENSORS_H
