// The headers precompiled for lib/ and checks/ (interop_analysis builds the
// precompiled header, InteropTidyChecks reuses it; lib/CMakeLists.txt): the
// LLVM, Clang and clang-tidy headers most of their files include, whose
// parsing was most of each file's front-end time. The build includes this
// file before each source file; every file must still include what it uses
// (a build configured with -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON shows one
// that does not).
#include "ClangTidyCheck.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>
