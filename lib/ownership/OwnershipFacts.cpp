//===--- OwnershipFacts.cpp - who owns a DLPack managed tensor ------------===//

#include "lib/ownership/OwnershipFacts.h"

#include "lib/abi/TranslationUnitNames.h"
#include "lib/engine/ExceptionEdges.h"
#include "lib/engine/FactPipeline.h"
#include "lib/ownership/OwnershipContracts.h"
#include "lib/ownership/ProducerTensors.h"
#include "lib/ownership/OwnershipJudgement.h"
#include "lib/ownership/OwnershipModel.h"
#include "lib/ownership/OwnershipSites.h"
#include "lib/ownership/OwnershipSyntaxProofs.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <tuple>

namespace clang::interop {

using namespace ownership;

std::string OwnershipConfig::key() const {
  std::string K;
  appendListToKey(K, OwnershipTakingImporters);
  appendToKey(K, Bounds.key());
  appendToKey(K, Exits.key());
  appendToKey(K, SyntacticProofs ? "syntax" : "flow");
  return K;
}

struct OwnershipFamily::Compiled {
  NameList Takers;
  /// The callee contracts, TensorSources among them.
  ExitConditions Exits;
};

struct OwnershipFamily::Run {
  const FunctionDecl &FD;
  ASTContext &Ctx;
  RunContext RC;
  /// What the exits' states showed.
  std::vector<OwnershipEvent> Exits;
  /// What the function's own contract says of its returns, found whichever
  /// way the rest is proved.
  std::vector<OwnershipEvent> Contract;
};

OwnershipFamily::Compiled OwnershipFamily::compile(const Config &C) {
  return Compiled{NameList(C.OwnershipTakingImporters),
                  ExitConditions(C.Exits)};
}

bool OwnershipFamily::translationUnitMayMatter(const ASTContext &Ctx) {
  return translationUnitMayUseDLPack(Ctx);
}

bool OwnershipFamily::preFilter(const FunctionDecl &FD, const Compiled &) {
  return FD.hasBody() && mentionsOwnershipIn(FD.getBody());
}

OwnershipFamily::Run
OwnershipFamily::prepare(const PipelineInput<OwnershipFamily> &In) {
  Run R{In.FD, In.Ctx, RunContext(), {}, {}};
  R.RC.FD = &In.FD;
  R.RC.IsDestructor = In.Role == CapsuleDestructor;
  R.RC.SourcesP = &In.Compiled.Exits.tensorSources();
  R.RC.TakersP = &In.Compiled.Takers;
  R.RC.ExitsP = &In.Compiled.Exits;
  findSites(R.RC, In.FD, In.Ctx);
  // Exception edges matter to a capsule's tensor (thrown before the claim)
  // and to one the function made or a producer handed it (leaked).
  if (!R.RC.IsDestructor && llvm::any_of(R.RC.Sites, [](const Site &S) {
        return S.From == Site::Capsule || S.From == Site::Created ||
               S.From == Site::Produced;
      }))
    for (const Stmt *P : exceptionExits(In.FD, MaxThrowPoints).Points) {
      R.RC.ThrowPointIndex[P] = R.RC.ThrowPoints.size();
      R.RC.ThrowPoints.push_back(P);
    }
  for (const ProducedTensor &T : producedTensors(In.FD)) {
    if (deleterKeepsStruct(T))
      R.Contract.push_back({OwnershipEvent::DeleterKeepsTensor, T.Allocation,
                            nullptr, T.Deleter});
    if (nullDeleterExported(T))
      R.Contract.push_back({OwnershipEvent::NullDeleterExported, T.Allocation,
                            nullptr, T.Deleter});
    if (UnkeptPointer U = unkeptPointer(T); U.At) {
      OwnershipEvent E{OwnershipEvent::DataNotKeptAlive, U.At, nullptr,
                       T.Deleter};
      E.How = U.Field;
      E.Context = U.NumbersContext;
      E.ContextPointers = U.UnreadPointers;
      R.Contract.push_back(E);
    }
  }
  for (const StillOwnedReturn &S :
       stillOwnedReturns(In.FD, In.Compiled.Exits.tensorSources())) {
    OwnershipEvent E;
    E.K = OwnershipEvent::ReturnStillOwned;
    E.At = S.Return;
    E.Related = S.Get;
    E.Owner = S.Owner;
    R.Contract.push_back(E);
  }
  return R;
}

std::optional<std::vector<OwnershipEvent>>
OwnershipFamily::proveBySyntax(Run &R) {
  std::optional<std::vector<OwnershipEvent>> Events =
      ownershipEventsBySyntax(R.RC, R.FD);
  if (Events)
    Events->insert(Events->end(), R.Contract.begin(), R.Contract.end());
  return Events;
}

OwnershipModel OwnershipFamily::makeAnalysis(ASTContext &Ctx,
                                             dataflow::Environment &Env,
                                             Run &R) {
  return OwnershipModel(Ctx, Env, R.RC);
}

void OwnershipFamily::judgeExit(
    Run &R, const CFGBlock &B,
    const dataflow::TypeErasedDataflowAnalysisState &S) {
  ownership::judgeExit(R.RC, R.FD, B, S.Env, R.Exits);
}

void OwnershipFamily::collect(Run &R, Analysis &A,
                              std::vector<OwnershipEvent> &Out) {
  // Judged from the states recorded during the fixpoint (see
  // OwnershipModel::Recorded) rather than by a diagnosis pass.
  Out = judgeStatements(R.RC, A.Recorded, R.Ctx);
  Out.insert(Out.end(), R.Exits.begin(), R.Exits.end());
  Out.insert(Out.end(), R.Contract.begin(), R.Contract.end());
}

void OwnershipFamily::postProcess(Run &R, std::vector<OwnershipEvent> &Events) {
  // Elements are judged once per visit of the final states; keep one event
  // per kind and place (and per exit for leaks).
  llvm::DenseSet<std::tuple<unsigned, const Stmt *, const void *, unsigned>>
      Seen;
  llvm::erase_if(Events, [&](const OwnershipEvent &E) {
    return !Seen.insert({unsigned(E.K), E.Related, E.subject(),
                         E.ExitLoc.getRawEncoding()})
                .second;
  });
  const SourceManager &SM = R.Ctx.getSourceManager();
  // A call that throws inside a return or throw where the same tensor
  // leaks anyway is that one exit, not a second.
  auto InsideAnExit = [&](const OwnershipEvent &C) {
    return C.K == OwnershipEvent::Leak &&
           C.Exit == OwnershipEvent::CallThrows &&
           llvm::any_of(Events, [&](const OwnershipEvent &X) {
             return X.K == OwnershipEvent::Leak && X.ExitAt &&
                    X.subject() == C.subject() &&
                    SM.isPointWithin(C.ExitLoc, X.ExitAt->getBeginLoc(),
                                     X.ExitAt->getEndLoc());
           });
  };
  std::vector<OwnershipEvent> Kept;
  for (const OwnershipEvent &E : Events)
    if (!InsideAnExit(E))
      Kept.push_back(E);
  Events = std::move(Kept);
  auto LocOf = [](const OwnershipEvent &E) {
    return E.At ? E.At->getBeginLoc()
                : (E.Param ? E.Param->getLocation() : SourceLocation());
  };
  llvm::sort(Events, [&](const OwnershipEvent &A, const OwnershipEvent &B) {
    if (LocOf(A) != LocOf(B))
      return SM.isBeforeInTranslationUnit(LocOf(A), LocOf(B));
    if (A.ExitLoc != B.ExitLoc)
      return SM.isBeforeInTranslationUnit(A.ExitLoc, B.ExitLoc);
    return A.K < B.K;
  });
}

template class FactQuery<OwnershipFamily>;

const OwnershipFacts &getOwnershipFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                        bool IsCapsuleDestructor,
                                        const OwnershipConfig &Config) {
  return OwnershipQuery(Config).facts(
      FD, Ctx, IsCapsuleDestructor ? CapsuleDestructor : PlainFunction);
}

bool mentionsOwnership(const FunctionDecl &FD) {
  static OwnershipQuery Default{OwnershipConfig()};
  return Default.use(FD, FD.getASTContext());
}

} // namespace clang::interop
