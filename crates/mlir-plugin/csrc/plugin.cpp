// The C++ half of the fuser pass plugin for mlir-opt-19: one mlir::Pass subclass whose
// instances stand for the fuser passes and pipelines of the Rust catalog, and their
// registration. A run prints the op (generic form, debug info, on its own), and for each
// ancestor a shell (name, attributes, result types, location; regions empty) and the
// symbol siblings (operand-free, regionless ops such as fusion.mesh); Rust runs the fuser
// pass on that text; the diagnostics it reports become MLIR diagnostics, and the op it
// prints is parsed and moved into the op the pass runs on. Pieces are printed, never
// cloned: MLIR 19 drops an unregistered op's properties when it clones it.
//
// Compiled without exceptions, like LLVM; the Rust functions catch their panics.

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern "C" {
struct FuserEntryInfo {
  const char *argument;
  const char *summary;
  const char *anchor;
};
struct FuserStr {
  const uint8_t *ptr;
  size_t len;
};
struct FuserLevel {
  FuserStr shell;
  size_t region;
  const FuserStr *siblings;
  size_t num_siblings;
  size_t position;
};
struct FuserRunSink {
  void *user;
  void (*diagnostic)(void *, uint32_t, bool, const uint8_t *, size_t, const uint8_t *, size_t);
  void (*output)(void *, const uint8_t *, size_t);
};
size_t fuser_plugin_entry_count();
bool fuser_plugin_entry(size_t index, FuserEntryInfo *out);
bool fuser_plugin_check_options(size_t index, const uint8_t *options, size_t len, const FuserRunSink *sink);
bool fuser_plugin_run(size_t index, FuserStr options, FuserStr op, const FuserLevel *levels, size_t num_levels,
                      const FuserRunSink *sink);
}

namespace {

using namespace mlir;

// One 8-byte-aligned slot per catalog entry: its address is the pass's TypeID.
constexpr size_t kMaxEntries = 64;
alignas(8) char passIds[kMaxEntries][8];

// A diagnostic reported by Rust, kept until the run returns.
struct ReportedNote {
  std::string loc, message;
};
struct ReportedDiagnostic {
  uint32_t severity;
  std::string loc, message;
  std::vector<ReportedNote> notes;
};

// What a run reported.
struct RunResults {
  std::vector<ReportedDiagnostic> diagnostics;
  std::optional<std::string> output;
};

void onDiagnostic(void *user, uint32_t severity, bool isNote, const uint8_t *loc, size_t locLen, const uint8_t *msg,
                  size_t msgLen) {
  auto *results = static_cast<RunResults *>(user);
  std::string l(reinterpret_cast<const char *>(loc), locLen), m(reinterpret_cast<const char *>(msg), msgLen);
  if (isNote && !results->diagnostics.empty())
    results->diagnostics.back().notes.push_back({l, m});
  else
    results->diagnostics.push_back({severity, l, m, {}});
}

void onOutput(void *user, const uint8_t *text, size_t len) {
  static_cast<RunResults *>(user)->output = std::string(reinterpret_cast<const char *>(text), len);
}

// The location written as `loc(...)` text, parsed by attaching it to a throwaway op;
// `fallback` when it does not parse (or is unknown).
Location parseLocation(MLIRContext *ctx, const std::string &text, Location fallback) {
  if (text == "loc(unknown)")
    return fallback;
  Block block;
  ParserConfig config(ctx, /*verifyAfterParse=*/false);
  std::string source = "\"fuser.location_carrier\"() : () -> () " + text;
  // Swallow this thread's complaints about text that is not a location; other threads'
  // diagnostics (MLIR may run passes in parallel) go on to the user.
  std::thread::id self = std::this_thread::get_id();
  ScopedDiagnosticHandler silence(
      ctx, [self](Diagnostic &) { return std::this_thread::get_id() == self ? success() : failure(); });
  if (failed(parseSourceString(source, &block, config)) || block.empty())
    return fallback;
  return block.front().getLoc();
}

void emitReported(MLIRContext *ctx, const ReportedDiagnostic &d, Location at) {
  Location loc = parseLocation(ctx, d.loc, at);
  InFlightDiagnostic diag = d.severity == 1 ? emitWarning(loc) : d.severity >= 2 ? emitRemark(loc) : emitError(loc);
  diag << d.message;
  for (const ReportedNote &n : d.notes)
    diag.attachNote(parseLocation(ctx, n.loc, at)) << n.message;
}

// `op` printed on its own: generic form, debug info (inline), values numbered from it. The
// printer's state is rooted at `op` itself, so printing reads nothing outside `op`.
// (`Operation::print` with local scope numbers from the nearest isolated-from-above ancestor,
// which for a symbol op such as fusion.mesh is the whole module: a walk over every function,
// which other threads are rewriting when MLIR runs a func.func pipeline in parallel.)
std::string opText(Operation *op) {
  OpPrintingFlags flags = OpPrintingFlags().printGenericOpForm().enableDebugInfo(true, false).useLocalScope();
  AsmState state(op, flags);
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, state);
  return text;
}

// `parent` with its regions empty, printed.
std::string shellText(Operation *parent) {
  OperationState state(parent->getLoc(), parent->getName());
  state.addAttributes(parent->getAttrDictionary().getValue());
  state.addTypes(parent->getResultTypes());
  for (unsigned i = 0; i < parent->getNumRegions(); ++i)
    state.addRegion();
  Operation *shell = Operation::create(state);
  std::string text = opText(shell);
  shell->destroy();
  return text;
}

// The printed pieces of one ancestor level; FuserLevel views into them.
struct LevelText {
  std::string shell;
  size_t region = 0, position = 0;
  std::vector<std::string> siblings;
};

// The level of `parent` around `child`. Under MLIR's threading rules a pass may read its
// ancestors but not the ops beside them, which other threads may be rewriting: of the
// siblings only fields that never change are read (operand and region counts) until one is
// known to be an operand-free, regionless op (a symbol such as fusion.mesh, which no pass
// nested in a function touches); only those are printed, each on its own.
LevelText levelOf(Operation *parent, Operation *child) {
  LevelText level;
  level.shell = shellText(parent);
  level.region = child->getBlock()->getParent()->getRegionNumber();
  for (Operation &sib : *child->getBlock()) {
    if (&sib == child)
      level.position = level.siblings.size();
    else if (sib.getNumRegions() == 0 && sib.getNumOperands() == 0)
      level.siblings.push_back(opText(&sib));
  }
  return level;
}

FuserStr view(const std::string &s) { return {reinterpret_cast<const uint8_t *>(s.data()), s.size()}; }

// Makes `target` what `source` is, keeping the object the pass manager holds.
LogicalResult replaceContents(Operation *target, Operation *source) {
  if (target->getName() != source->getName() || target->getNumRegions() != source->getNumRegions() ||
      target->getResultTypes() != source->getResultTypes())
    return target->emitError("fuser pass replaced the op it runs on by a different op");
  target->setLoc(source->getLoc());
  // Same op name, hence the same properties type (an attribute for unregistered ops).
  target->copyProperties(source->getPropertiesStorage());
  target->setDiscardableAttrs(source->getDiscardableAttrDictionary());
  for (unsigned i = 0; i < target->getNumRegions(); ++i)
    target->getRegion(i).takeBody(source->getRegion(i));
  return success();
}

class FuserPass : public Pass {
public:
  FuserPass(size_t index, const FuserEntryInfo &info)
      : Pass(TypeID::getFromOpaquePointer(passIds[index]),
             info.anchor[0] ? std::optional<StringRef>(info.anchor) : std::nullopt),
        index(index), info(info) {}

  StringRef getName() const override { return info.argument; }
  StringRef getArgument() const override { return info.argument; }
  StringRef getDescription() const override { return info.summary; }
  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  std::unique_ptr<Pass> clonePass() const override {
    auto copy = std::make_unique<FuserPass>(index, info);
    copy->options = options;
    return copy;
  }

  LogicalResult initializeOptions(StringRef text, function_ref<LogicalResult(const Twine &)> errorHandler) override {
    RunResults results;
    FuserRunSink sink{&results, onDiagnostic, onOutput};
    if (!fuser_plugin_check_options(index, reinterpret_cast<const uint8_t *>(text.data()), text.size(), &sink))
      return errorHandler(results.diagnostics.empty() ? std::string("invalid options")
                                                      : results.diagnostics.front().message);
    options = text.str();
    return success();
  }

  void runOnOperation() override {
    Operation *op = getOperation();
    std::string text = opText(op);
    std::vector<LevelText> levels;
    for (Operation *cur = op; Operation *parent = cur->getParentOp(); cur = parent)
      levels.push_back(levelOf(parent, cur));
    std::vector<std::vector<FuserStr>> siblingViews;
    std::vector<FuserLevel> levelViews;
    for (const LevelText &l : levels) {
      siblingViews.emplace_back();
      for (const std::string &s : l.siblings)
        siblingViews.back().push_back(view(s));
    }
    for (size_t i = 0; i < levels.size(); ++i)
      levelViews.push_back({view(levels[i].shell), levels[i].region, siblingViews[i].data(), siblingViews[i].size(),
                            levels[i].position});
    RunResults results;
    FuserRunSink sink{&results, onDiagnostic, onOutput};
    bool ok = fuser_plugin_run(index, view(options), view(text), levelViews.data(), levelViews.size(), &sink);
    for (const ReportedDiagnostic &d : results.diagnostics)
      emitReported(op->getContext(), d, op->getLoc());
    if (!ok)
      return signalPassFailure();
    if (results.output && failed(writeBack(op, *results.output)))
      return signalPassFailure();
  }

private:
  // Parses the op fuser printed and moves it into `op`.
  static LogicalResult writeBack(Operation *op, const std::string &text) {
    Block block;
    ParserConfig config(op->getContext());
    if (failed(parseSourceString(text, &block, config)) || block.empty())
      return op->emitError("MLIR could not parse the op a fuser pass produced");
    return replaceContents(op, &block.front());
  }

  size_t index;
  FuserEntryInfo info;
  std::string options;
};

} // namespace

// Registers every catalog entry; called by mlir-opt through mlirGetPassPluginInfo.
extern "C" __attribute__((visibility("default"))) void fuser_plugin_register_passes() {
  size_t count = std::min(fuser_plugin_entry_count(), kMaxEntries);
  for (size_t i = 0; i < count; ++i) {
    FuserEntryInfo info;
    if (!fuser_plugin_entry(i, &info))
      continue;
    registerPass([i, info]() -> std::unique_ptr<Pass> { return std::make_unique<FuserPass>(i, info); });
  }
}
