// Unit tests of lib/ownership/ProducerTensors.h: what a producer gives the
// managed tensors it allocates (the deleter, manager_ctx, data), through
// braced initialisers, stores and a DLTensor local; and which go into a
// capsule with no deleter.

#include "lib/ownership/ProducerTensors.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::ownership;
using namespace interop_test;

namespace {

/// The pointer unkeptPointer() names, or "" when every one is kept.
std::string unkept(const ProducedTensor &T) {
  UnkeptPointer U = unkeptPointer(T);
  return U.At && U.Field ? U.Field : "";
}

TEST(ProducerTensors, WhatEachAllocationIsGiven) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <stdlib.h>
void keep(DLManagedTensor *);
void release(DLManagedTensor *self) { free(self); }
struct Buffer { void *data; };
void f(Buffer &b, void *data, void *owner) {
  DLTensor dl{};
  dl.data = b.data;
  keep(new DLManagedTensor{dl, nullptr, [](DLManagedTensor *) {}});
  auto *mt = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  mt->manager_ctx = owner;
  mt->deleter = release;
  keep(mt);
  auto *local = new DLManagedTensor{};
  local->dl_tensor.data = data;
  delete local;
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "f"));
  ASSERT_EQ(T.size(), 3u);
  // The braced list: a no-op lambda, manager_ctx NULL, data through `dl`.
  ASSERT_TRUE(T[0].DeleterFn);
  EXPECT_TRUE(T[0].Data) << "dl.data = b.data";
  EXPECT_TRUE(deleterKeepsStruct(T[0]));
  EXPECT_EQ(unkept(T[0]), "data");
  // Stores: a deleter that frees, an owner in manager_ctx.
  ASSERT_TRUE(T[1].DeleterFn);
  EXPECT_EQ(T[1].DeleterFn->getName(), "release");
  EXPECT_TRUE(T[1].ManagerCtx);
  EXPECT_FALSE(deleterKeepsStruct(T[1]));
  EXPECT_EQ(unkept(T[1]), "");
  // Freed by the function itself, no deleter: nothing to judge.
  EXPECT_TRUE(T[2].FreedHere);
  EXPECT_FALSE(T[2].DeleterFn);
  EXPECT_FALSE(deleterKeepsStruct(T[2]));
  EXPECT_EQ(unkept(T[2]), "");
}

TEST(ProducerTensors, AContextOfNumbersKeepsOnlyWhatPointsIntoIt) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <vector>
struct Dims { int64_t shape[2]; int64_t strides[2]; };
struct Owning { std::vector<float> keep; int64_t shape[2]; };
void release(DLManagedTensor *self) {
  delete static_cast<Dims *>(self->manager_ctx);
  delete self;
}
void keep(DLManagedTensor *);
void f(std::vector<float> &v) {
  float *p = v.data();
  auto *dims = new Dims{{2, 2}, {2, 1}};
  auto *a = new DLManagedTensor{};
  a->dl_tensor.data = p;
  a->dl_tensor.shape = dims->shape;
  a->manager_ctx = dims;
  a->deleter = release;
  keep(a);
  auto *owning = new Owning{v, {2, 2}};
  auto *b = new DLManagedTensor{};
  b->dl_tensor.data = owning->keep.data();
  b->dl_tensor.shape = owning->shape;
  b->manager_ctx = owning;
  b->deleter = release;
  keep(b);
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "f"));
  ASSERT_EQ(T.size(), 2u);
  UnkeptPointer A = unkeptPointer(T[0]);
  EXPECT_EQ(unkept(T[0]), "data") << "a local holding v.data(); the shape "
                                     "points into the context";
  EXPECT_TRUE(A.NumbersContext);
  EXPECT_EQ(unkept(T[1]), "") << "the data points into the context's vector";
}

TEST(ProducerTensors, AContextsUnreadPointersReleaseNothing) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <stdint.h>
#include <vector>
struct Field { void *buffer(); };
struct Borrowing { Field *field; std::vector<int64_t> shape; };
struct Releasing { Field *field; std::vector<int64_t> shape; };
void release(DLManagedTensor *self) {
  delete static_cast<Borrowing *>(self->manager_ctx);
  delete self;
}
void release_field(DLManagedTensor *self) {
  auto *ctx = static_cast<Releasing *>(self->manager_ctx);
  delete ctx->field;
  delete ctx;
  delete self;
}
void keep(DLManagedTensor *);
void f(Field &field) {
  auto *ctx = new Borrowing{&field, {2}};
  auto *a = new DLManagedTensor{};
  a->dl_tensor.data = field.buffer();
  a->dl_tensor.shape = ctx->shape.data();
  a->manager_ctx = ctx;
  a->deleter = release;
  keep(a);
  auto *owner = new Releasing{&field, {2}};
  auto *b = new DLManagedTensor{};
  b->dl_tensor.data = field.buffer();
  b->dl_tensor.shape = owner->shape.data();
  b->manager_ctx = owner;
  b->deleter = release_field;
  keep(b);
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "f"));
  ASSERT_EQ(T.size(), 2u);
  UnkeptPointer A = unkeptPointer(T[0]);
  EXPECT_EQ(unkept(T[0]), "data") << "nothing reads Borrowing::field";
  EXPECT_TRUE(A.UnreadPointers);
  EXPECT_EQ(unkept(T[1]), "") << "the deleter releases Releasing::field";
}

TEST(ProducerTensors, ARawAddressIsTheCallersToKeep) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <stdint.h>
DLManagedTensor *wrap(uintptr_t address, void *data) {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = reinterpret_cast<void *>(address);
  mt->deleter = [](DLManagedTensor *self) { delete self; };
  auto *other = new DLManagedTensor{};
  other->dl_tensor.data = data;
  other->deleter = [](DLManagedTensor *self) { delete self; };
  return mt;
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "wrap"));
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(unkept(T[0]), "") << "an integer address";
  EXPECT_EQ(unkept(T[1]), "") << "a pointer parameter";
}

TEST(ProducerTensors, TheMetadataIsKeptToo) {
  // Shape and strides into a wrapper's own vectors, with manager_ctx NULL:
  // unkept, though the deleter frees the data; kept when the deleter frees
  // them (its own copies) or manager_ctx holds the wrapper.
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <stdlib.h>
struct W { long *shape; long *strides; void *data; };
void own(DLManagedTensor *self) {
  free(self->dl_tensor.data);
  free(self->dl_tensor.shape);
  delete self;
}
void f(W &w) {
  auto *a = new DLManagedTensor{};
  a->dl_tensor.data = w.data;
  a->dl_tensor.strides = w.strides;
  a->deleter = [](DLManagedTensor *self) { free(self->dl_tensor.data); delete self; };
  auto *b = new DLManagedTensor{};
  b->dl_tensor.data = w.data;
  b->dl_tensor.shape = w.shape;
  b->deleter = own;
  auto *c = new DLManagedTensor{};
  c->dl_tensor.shape = w.shape;
  c->manager_ctx = &w;
  c->deleter = own;
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "f"));
  ASSERT_EQ(T.size(), 3u);
  EXPECT_EQ(unkept(T[0]), "strides");
  EXPECT_EQ(unkept(T[1]), "");
  EXPECT_EQ(unkept(T[2]), "");
}

} // namespace

namespace {

TEST(ProducerTensors, InACapsuleWithoutADeleter) {
  auto AST = parseWithInputs(R"cpp(
#include <Python.h>
#include <dlpack/dlpack.h>
void finish(DLManagedTensor *);
void dtor(PyObject *);
void f(void *data) {
  auto *stored = new DLManagedTensor();
  stored->deleter = nullptr;
  PyCapsule_New(stored, "dltensor", dtor);
  auto *unset = new DLManagedTensor{};
  PyCapsule_New(unset, "dltensor", dtor);
  auto *garbage = new DLManagedTensor;
  PyCapsule_New(garbage, "dltensor", dtor);
  auto *elsewhere = new DLManagedTensor{};
  finish(elsewhere);
  PyCapsule_New(elsewhere, "dltensor", dtor);
  auto *kept = new DLManagedTensor{};
  kept->deleter = nullptr;
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<ProducedTensor> T =
      producedTensors(*functionNamed(AST->getASTContext(), "f"));
  ASSERT_EQ(T.size(), 5u);
  EXPECT_TRUE(nullDeleterExported(T[0])) << "stored NULL";
  EXPECT_TRUE(nullDeleterExported(T[1])) << "value-initialised, never set";
  EXPECT_FALSE(nullDeleterExported(T[2])) << "default-initialised: unknown";
  EXPECT_FALSE(nullDeleterExported(T[3])) << "another call may set it";
  EXPECT_FALSE(nullDeleterExported(T[4])) << "never put in a capsule";
}

} // namespace
