/* Self-written stand-in for oneDNN's dnnl.hpp (not installed here): only the
   names DashInfer's cpu_context.h and operator.h declare members with. */
#pragma once
#include <cstddef>
namespace dnnl {
struct primitive {};
struct memory {};
struct primitive_attr {};
enum class algorithm { undef };
struct engine {
  enum class kind { any, cpu, gpu };
  engine(kind akind, size_t index);
};
struct stream {
  explicit stream(const engine& aengine);
  stream& wait();
};
}  // namespace dnnl
