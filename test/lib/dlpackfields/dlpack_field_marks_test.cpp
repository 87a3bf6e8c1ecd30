// Unit tests of lib/dlpackfields/DLPackFieldMarks.h: which fields carry
// facts, the markers and atoms a field's value gets once, what a cast's
// clone keeps, and the truth of a comparison or a test of a field's value.

#include "lib/dlpackfields/DLPackFieldMarks.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::dlpackfield;
using namespace clang::dataflow;
using namespace interop_test;

namespace {

TEST(DLPackFieldMarks, TrackedFields) {
  for (DLPackField F :
       {DLPackField::Data, DLPackField::Strides, DLPackField::ByteOffset,
        DLPackField::DeviceType, DLPackField::Major, DLPackField::Flags})
    EXPECT_TRUE(isTrackedField(F)) << dlpackFieldName(F).str();
  for (DLPackField F :
       {DLPackField::None, DLPackField::Shape, DLPackField::NDim,
        DLPackField::DType, DLPackField::Device, DLPackField::DeviceId,
        DLPackField::DLTensor, DLPackField::Deleter, DLPackField::Minor})
    EXPECT_FALSE(isTrackedField(F)) << dlpackFieldName(F).str();
}

const char *const Comparisons = R"cpp(
void f(int64_t *s, uint64_t off, int dt, int major, int other, int64_t *own) {
  (void)(s == 0);
  (void)(nullptr != s);
  (void)(s == own);
  (void)(off == 0);
  (void)(off > 0);
  (void)(off < 0);
  (void)(dt == 2);
  (void)(dt != 1);
  (void)(dt < 2);
  (void)(major == 1);
  (void)(major != 1);
  (void)(major > 1);
  (void)(other == 0);
  (void)(own == 0);
}
)cpp";

/// The comparisons of f, with the reads of each parameter given one value
/// marked as the field it stands for (`own` the function's own).
struct Fixture {
  std::unique_ptr<ASTUnit> AST =
      parseDLPackCode(std::string(DLPackPrelude) + Comparisons);
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  DLPackFieldConfig Config;
  RunContext RC;
  std::unique_ptr<FieldState> S;
  std::vector<const BinaryOperator *> Ops;
  std::map<std::string, Value *> Values;

  Fixture() {
    ASTContext &Ctx = AST->getASTContext();
    EXPECT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
    RC.Config = &Config;
    S = std::make_unique<FieldState>(FieldState{Env, RC, Ctx});
    Value &Strides =
        Env.create<PointerValue>(Env.createStorageLocation(Ctx.LongTy));
    markField(Strides, kStrides, {kNull}, Env);
    Value &Off = Env.create<IntegerValue>();
    markField(Off, kByteOffset, {kZero}, Env);
    Value &DT = Env.create<IntegerValue>();
    markField(DT, kDeviceType, {kHost}, Env);
    Value &Major = Env.create<IntegerValue>();
    markField(Major, kMajor, {kMajorOk, kMajorAssertOk}, Env);
    Value &Own =
        Env.create<PointerValue>(Env.createStorageLocation(Ctx.LongTy));
    Own.setProperty(kLocal, Env.getBoolLiteralValue(true));
    Values = {{"s", &Strides},
              {"off", &Off},
              {"dt", &DT},
              {"major", &Major},
              {"own", &Own}};
    const FunctionDecl *F = functionNamed(Ctx, "f");
    for (const Stmt *St : cast<CompoundStmt>(F->getBody())->body()) {
      const auto *BO = cast<BinaryOperator>(
          cast<CStyleCastExpr>(St)->getSubExpr()->IgnoreParens());
      Ops.push_back(BO);
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
        // The read of a parameter, under any conversion.
        const Expr *Read = Side;
        while (const auto *ICE = dyn_cast<ImplicitCastExpr>(Read)) {
          if (ICE->getCastKind() == CK_LValueToRValue)
            break;
          Read = ICE->getSubExpr();
        }
        const auto *ICE = dyn_cast<ImplicitCastExpr>(Read);
        if (!ICE || ICE->getCastKind() != CK_LValueToRValue)
          continue;
        auto It = Values.find(
            cast<DeclRefExpr>(ICE->getSubExpr())->getDecl()->getNameAsString());
        if (It != Values.end())
          Env.setValue(*ICE, *It->second);
      }
    }
  }

  /// The comparison's truth, as the atom (or its negation) it is:
  /// "null", "!zero", "eq2", ...; "none" for no truth.
  std::string truth(const BoolValue *B) {
    if (!B)
      return "none";
    Arena &A = Env.arena();
    std::vector<std::pair<std::string, const BoolValue *>> Atoms = {
        {"null", boolProp(Values["s"], kNull)},
        {"zero", boolProp(Values["off"], kZero)},
        {"eq1", boolProp(Values["dt"], "interop.dt.eq.1")},
        {"eq2", boolProp(Values["dt"], "interop.dt.eq.2")},
        {"ok", boolProp(Values["major"], kMajorOk)}};
    for (const auto &[Name, Atom] : Atoms) {
      if (!Atom)
        continue;
      if (Env.proves(A.makeEquals(B->formula(), Atom->formula())))
        return Name;
      if (Env.proves(A.makeEquals(B->formula(), A.makeNot(Atom->formula()))))
        return "!" + Name;
    }
    return "other";
  }
};

TEST(DLPackFieldMarks, MarkedOnce) {
  Fixture F;
  Value &V = *F.Values["s"];
  BoolValue *Null = boolProp(&V, kNull);
  ASSERT_NE(Null, nullptr);
  EXPECT_TRUE(hasProp(&V, kStrides));
  markField(V, kStrides, {kNull}, F.Env);
  EXPECT_EQ(boolProp(&V, kNull), Null);
  // Another marker adds its own atoms.
  markField(V, kByteOffset, {kZero}, F.Env);
  EXPECT_NE(boolProp(&V, kZero), nullptr);
}

TEST(DLPackFieldMarks, Comparisons) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 14u);
  std::vector<std::string> Got;
  for (const BinaryOperator *BO : F.Ops)
    Got.push_back(F.truth(comparisonValue(BO, *F.S)));
  EXPECT_EQ(Got,
            (std::vector<std::string>{"null", "!null", "none", // strides
                                      "zero", "!zero", "none", // byte_offset
                                      "eq2", "!eq1", "none",   // device_type
                                      "ok", "!ok", "!ok",      // version.major
                                      "none", "none"}));       // untracked, own
  // A NULL test of the strides is remembered for the collector.
  EXPECT_TRUE(F.RC.NullTested.contains(F.Values["s"]));
  // Each compared device type decides host-ness and excludes the others.
  Arena &A = F.Env.arena();
  const Formula &Eq1 = boolProp(F.Values["dt"], "interop.dt.eq.1")->formula();
  const Formula &Eq2 = boolProp(F.Values["dt"], "interop.dt.eq.2")->formula();
  const Formula &Host = boolProp(F.Values["dt"], kHost)->formula();
  EXPECT_TRUE(F.Env.proves(A.makeImplies(Eq1, Host)));
  EXPECT_TRUE(F.Env.proves(A.makeImplies(Eq2, A.makeNot(Host))));
  EXPECT_TRUE(F.Env.proves(A.makeNot(A.makeAnd(Eq1, Eq2))));
  EXPECT_FALSE(F.Env.proves(A.makeImplies(Host, Eq1)));
}

TEST(DLPackFieldMarks, TruthOfATestedValue) {
  Fixture F;
  EXPECT_EQ(F.truth(truthValue(*F.Values["s"], *F.S)), "!null");
  EXPECT_TRUE(F.RC.NullTested.contains(F.Values["s"]));
  EXPECT_EQ(F.truth(truthValue(*F.Values["off"], *F.S)), "!zero");
  EXPECT_EQ(truthValue(*F.Values["dt"], *F.S), nullptr);
  EXPECT_EQ(truthValue(*F.Values["own"], *F.S), nullptr);
}

TEST(DLPackFieldMarks, CastsKeepWhatAValueCarries) {
  Fixture F;
  ASTContext &Ctx = F.AST->getASTContext();
  Value &Off = *F.Values["off"];
  Value *Wide = cloneTracked(Off, Ctx.LongLongTy, *F.S);
  ASSERT_NE(Wide, nullptr);
  EXPECT_TRUE(isa<IntegerValue>(Wide));
  EXPECT_NE(Wide, &Off);
  EXPECT_EQ(boolProp(Wide, kZero), boolProp(&Off, kZero));
  EXPECT_EQ(originOf(F.RC, Wide), &Off);
  // A clone of the clone still points back at the value read.
  Value *Again = cloneTracked(*Wide, Ctx.IntTy, *F.S);
  ASSERT_NE(Again, nullptr);
  EXPECT_EQ(originOf(F.RC, Again), &Off);
  // Integer to pointer and back.
  Value *AsPointer = cloneTracked(Off, Ctx.getPointerType(Ctx.CharTy), *F.S);
  ASSERT_NE(AsPointer, nullptr);
  EXPECT_TRUE(isa<PointerValue>(AsPointer));
  // A pointer that is not `data` does not become an integer; a truth is
  // no field value.
  EXPECT_EQ(cloneTracked(*F.Values["s"], Ctx.LongTy, *F.S), nullptr);
  EXPECT_EQ(cloneTracked(F.Env.makeAtomicBoolValue(), Ctx.LongTy, *F.S),
            nullptr);
}

/// Per event of kind K in FD, in source order: the flag Flag says of it.
std::vector<bool> eventFlags(const FunctionDecl &FD, ASTContext &Ctx,
                             DLPackEvent::Kind K, bool DLPackEvent::*Flag) {
  std::vector<bool> Out;
  for (const DLPackEvent &E : getDLPackFieldFacts(FD, Ctx).Events)
    if (E.K == K)
      Out.push_back(E.*Flag);
  return Out;
}

const char *const Switches = R"cpp(
float by_device(const DLTensor *t) {
  float x = 0;
  switch (t->device.device_type) {
  case kDLCPU:
    x += static_cast<const float *>(t->data)[0];
    break;
  case kDLCUDA:
    x += static_cast<const float *>(t->data)[0];
    break;
  default:
    x += static_cast<const float *>(t->data)[0];
  }
  return x + static_cast<const float *>(t->data)[0];
}
float host_arms_meet(const DLTensor *t) {
  switch (t->device.device_type) {
  case kDLCPU:
    break;
  case kDLCUDAHost:
    break;
  default:
    return 0;
  }
  return static_cast<const float *>(t->data)[0];
}
float default_of_host_types(const DLTensor *t) {
  switch (t->device.device_type) {
  case kDLCUDA:
  case kDLROCM:
    return 0;
  default:
    return static_cast<const float *>(t->data)[0];
  }
}
enum Own { Host, Gpu };
float mapped(const DLTensor *t) {
  Own d;
  switch (t->device.device_type) {
  case kDLCPU: d = Host; break;
  case kDLCUDA: d = Gpu; break;
  default: return 0;
  }
  switch (d) {
  case Host: return static_cast<const float *>(t->data)[0];
  case Gpu: break;
  }
  return 0;
}
float mapped_from_elsewhere(const DLTensor *t, Own from) {
  Own d = from;
  switch (t->device.device_type) {
  case kDLCPU: d = Host; break;
  default: break;
  }
  switch (d) {
  case Host: return static_cast<const float *>(t->data)[0];
  default: break;
  }
  return 0;
}
struct Imported;
Imported *keep(DLManagedTensorVersioned *mt, int64_t ndim);
Imported *by_major(DLManagedTensorVersioned *mt) {
  switch (mt->version.major) {
  case 1:
    return keep(mt, mt->dl_tensor.ndim);
  case 2:
  case 3:
    return keep(mt, mt->dl_tensor.ndim);
  }
  return keep(mt, mt->dl_tensor.ndim);
}
Imported *major_chained(DLManagedTensorVersioned *mt) {
  switch (mt->version.major) {
  case 2:
  case 1:
    return keep(mt, mt->dl_tensor.ndim);
  default:
    mt->deleter(mt);
    return nullptr;
  }
}
)cpp";

TEST(DLPackFieldMarks, SwitchCases) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Switches);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Host = [&](const char *Name) {
    return eventFlags(*functionNamed(Ctx, Name), Ctx, DLPackEvent::DataDeref,
                      &DLPackEvent::HostProven);
  };
  // `case kDLCPU:` is host memory; CUDA, another type and the join after
  // the switch are not.
  EXPECT_EQ(Host("by_device"), (std::vector<bool>{true, false, false, false}));
  // Two empty host arms meet past the switch.
  EXPECT_EQ(Host("host_arms_meet"), (std::vector<bool>{true}));
  // A default proves only what is not listed: any other type.
  EXPECT_EQ(Host("default_of_host_types"), (std::vector<bool>{false}));
  // The device type mapped onto a local enumeration of the code's own, then
  // switched on; not when the local may hold Host from elsewhere.
  EXPECT_EQ(Host("mapped"), (std::vector<bool>{true}));
  EXPECT_EQ(Host("mapped_from_elsewhere"), (std::vector<bool>{false}));
  // `case 1:` of a switch over the major version is the supported one;
  // grouped with another, it is not proven.
  auto Major = [&](const char *Name) {
    return eventFlags(*functionNamed(Ctx, Name), Ctx,
                      DLPackEvent::VersionedAccess, &DLPackEvent::MajorChecked);
  };
  EXPECT_EQ(Major("by_major"), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(Major("major_chained"), (std::vector<bool>{false}));
}

const char *const RecordCopies = R"cpp(
float declared_copy(const DLTensor *t) {
  DLTensor c = *t;
  return static_cast<const float *>(c.data)[0];
}
float assigned_copy(const DLManagedTensor *mt) {
  DLTensor c;
  c = mt->dl_tensor;
  return static_cast<const float *>(c.data)[0];
}
float into_member(const DLTensor *t) {
  DLManagedTensor m;
  m.dl_tensor = *t;
  return static_cast<const float *>(m.dl_tensor.data)[0];
}
static float storage[4];
float own_then_copied(const DLTensor *t) {
  DLTensor c;
  c.data = storage;
  float first = static_cast<const float *>(c.data)[0];
  c = *t;
  return first + static_cast<const float *>(c.data)[0];
}
float copied_then_own(const DLTensor *t) {
  DLTensor c;
  c = *t;
  c.data = storage;
  return static_cast<const float *>(c.data)[0];
}
)cpp";

TEST(DLPackFieldMarks, RecordCopiesHoldWhatTheyCopied) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + RecordCopies);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Local = [&](const char *Name) {
    return eventFlags(*functionNamed(Ctx, Name), Ctx, DLPackEvent::DataDeref,
                      &DLPackEvent::Local);
  };
  // A copy of an import, made where it is declared or assigned later, into
  // a local or a member of a record the function built: not its own.
  EXPECT_EQ(Local("declared_copy"), (std::vector<bool>{false}));
  EXPECT_EQ(Local("assigned_copy"), (std::vector<bool>{false}));
  EXPECT_EQ(Local("into_member"), (std::vector<bool>{false}));
  // What the function writes itself is no import to judge: the read
  // before the copy and the read after `data` is written again make no
  // event; the read of the copy does.
  auto Reads = [&](const char *Name) {
    return eventFlags(*functionNamed(Ctx, Name), Ctx, DLPackEvent::DataDeref,
                      &DLPackEvent::Local)
        .size();
  };
  EXPECT_EQ(Reads("own_then_copied"), 1u);
  EXPECT_EQ(Reads("copied_then_own"), 0u);
}

} // namespace
