/* Self-written stand-in for xgrammar's compiler.h (not in the lmdeploy
   snapshot): the one type turbomind's bind.cpp names, complete so that
   pybind11 can take its typeid. */
#pragma once
namespace xgrammar {
class CompiledGrammar {
 public:
  CompiledGrammar() = default;
};
}  // namespace xgrammar
