// The C++ half of the fuser pass plugin for mlir-opt-19: one mlir::Pass subclass whose
// instances stand for the fuser passes and pipelines of the Rust catalog, and their
// registration. A run copies the op into shells of its ancestors with its symbol siblings
// (regionless, operand-free ops such as fusion.mesh), prints that in generic form with
// debug info, lets Rust run the fuser pass on the text, emits the diagnostics it reports as
// MLIR diagnostics, and moves the transformed op's contents back into the op.
//
// Compiled without exceptions, like LLVM; the Rust functions catch their panics.

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
#include <vector>

extern "C" {
struct FuserEntryInfo {
  const char *argument;
  const char *summary;
  const char *anchor;
};
struct FuserRunSink {
  void *user;
  void (*diagnostic)(void *, uint32_t, bool, const uint8_t *, size_t, const uint8_t *, size_t);
  void (*output)(void *, const uint8_t *, size_t);
};
size_t fuser_plugin_entry_count();
bool fuser_plugin_entry(size_t index, FuserEntryInfo *out);
bool fuser_plugin_check_options(size_t index, const uint8_t *options, size_t len, const FuserRunSink *sink);
bool fuser_plugin_run(size_t index, const uint8_t *options, size_t options_len, const uint8_t *text, size_t text_len,
                      const size_t *path, size_t path_len, const FuserRunSink *sink);
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
  ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
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

// A copy of `parent` (name, attributes, result types, location) with empty regions, but
// for `filled` moved into region `index`.
Operation *shellOf(Operation *parent, unsigned index, Region &filled) {
  OperationState state(parent->getLoc(), parent->getName());
  state.addAttributes(parent->getAttrDictionary().getValue());
  state.addTypes(parent->getResultTypes());
  for (unsigned i = 0; i < parent->getNumRegions(); ++i) {
    Region *r = state.addRegion();
    if (i == index)
      r->takeBody(filled);
  }
  return Operation::create(state);
}

// The op copied into shells of its ancestors; `path` gets 3 indices per level, top first.
Operation *shellAround(Operation *op, std::vector<size_t> &path) {
  Operation *current = op->clone();
  Operation *cur = op;
  std::vector<size_t> reversed;
  while (Operation *parent = cur->getParentOp()) {
    Block *block = cur->getBlock();
    Region tmp;
    Block *copy = new Block();
    tmp.push_back(copy);
    for (BlockArgument a : block->getArguments())
      copy->addArgument(a.getType(), a.getLoc());
    size_t position = 0, count = 0;
    for (Operation &sib : *block) {
      if (&sib == cur) {
        position = count++;
        copy->push_back(current);
      } else if (sib.getNumOperands() == 0 && sib.getNumRegions() == 0) {
        copy->push_back(sib.clone());
        ++count;
      }
    }
    unsigned regionIndex = block->getParent()->getRegionNumber();
    current = shellOf(parent, regionIndex, tmp);
    reversed.insert(reversed.end(), {position, 0, static_cast<size_t>(regionIndex)});
    cur = parent;
  }
  path.assign(reversed.rbegin(), reversed.rend());
  return current;
}

std::string genericText(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm().enableDebugInfo(true, false));
  return text;
}

// The op at `path` (3 indices per level) below `root`, or null.
Operation *findOp(Operation *root, const std::vector<size_t> &path) {
  Operation *op = root;
  for (size_t i = 0; i + 2 < path.size(); i += 3) {
    if (path[i] >= op->getNumRegions())
      return nullptr;
    Region &region = op->getRegion(path[i]);
    if (path[i + 1] >= region.getBlocks().size())
      return nullptr;
    Block &block = *std::next(region.begin(), path[i + 1]);
    if (path[i + 2] >= block.getOperations().size())
      return nullptr;
    op = &*std::next(block.begin(), path[i + 2]);
  }
  return op;
}

// Makes `target` what `source` is, keeping the object the pass manager holds.
LogicalResult replaceContents(Operation *target, Operation *source) {
  if (target->getName() != source->getName() || target->getNumRegions() != source->getNumRegions() ||
      target->getResultTypes() != source->getResultTypes())
    return target->emitError("fuser pass replaced the op it runs on by a different op");
  target->setLoc(source->getLoc());
  target->setAttrs(source->getAttrDictionary());
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
    MLIRContext *ctx = op->getContext();
    std::vector<size_t> path;
    std::unique_ptr<Operation, void (*)(Operation *)> root(shellAround(op, path), [](Operation *o) { o->erase(); });
    std::string text = genericText(root.get());
    // A top-level op other than a module is wrapped in one by fuser's parser.
    std::vector<size_t> rustPath = path;
    if (!isa<ModuleOp>(root.get()))
      rustPath.insert(rustPath.begin(), {0, 0, 0});
    RunResults results;
    FuserRunSink sink{&results, onDiagnostic, onOutput};
    bool ok = fuser_plugin_run(index, reinterpret_cast<const uint8_t *>(options.data()), options.size(),
                               reinterpret_cast<const uint8_t *>(text.data()), text.size(), rustPath.data(),
                               rustPath.size(), &sink);
    for (const ReportedDiagnostic &d : results.diagnostics)
      emitReported(ctx, d, op->getLoc());
    if (!ok)
      return signalPassFailure();
    if (results.output && failed(writeBack(op, *results.output, path)))
      return signalPassFailure();
  }

private:
  // Parses the transformed root and moves the op at `path` into `op`.
  static LogicalResult writeBack(Operation *op, const std::string &text, const std::vector<size_t> &path) {
    Block block;
    ParserConfig config(op->getContext());
    if (failed(parseSourceString(text, &block, config)) || block.empty())
      return op->emitError("MLIR could not parse the IR a fuser pass produced");
    Operation *source = findOp(&block.front(), path);
    if (!source)
      return op->emitError("the IR a fuser pass produced lost the op it ran on");
    return replaceContents(op, source);
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
