// Lowers an MLIR file with a pass pipeline through fuser's C ABI from C++, and prints the
// result as `fuser-opt --pass-pipeline=PIPELINE FILE` does.
//
//   c++ -std=c++17 -I include examples/c/lower.cpp -L target/debug -lfuser -Wl,-rpath,target/debug -o lower_cpp
//   ./lower_cpp examples/row_parallel_linear.mlir 'builtin.module(tp-default)'
//
// Handles live in unique_ptrs whose deleters call the destroy functions; the module is
// printed through the write callback into a std::string; diagnostics are read as records.
#include "fuser.h"

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

namespace {

struct DestroyContext {
  void operator()(fuser_context *c) const { fuser_context_destroy(c); }
};
struct DestroyModule {
  void operator()(fuser_module *m) const { fuser_module_destroy(m); }
};
struct DestroyDiagnostics {
  void operator()(fuser_diagnostics *d) const { fuser_diagnostics_destroy(d); }
};
using Context = std::unique_ptr<fuser_context, DestroyContext>;
using Module = std::unique_ptr<fuser_module, DestroyModule>;
using Diagnostics = std::unique_ptr<fuser_diagnostics, DestroyDiagnostics>;

// Appends printed pieces to the std::string behind `user`.
extern "C" int32_t append(const char *data, size_t len, void *user) {
  static_cast<std::string *>(user)->append(data, len);
  return 0;
}

// Each diagnostic as `file:line:col: severity: message`, then its notes, on stderr.
void report(const fuser_diagnostics *diags) {
  static const char *const labels[] = {"error", "warning", "remark", "note"};
  size_t count = 0;
  fuser_diagnostics_count(diags, &count);
  for (size_t i = 0; i < count; ++i) {
    fuser_diagnostic d;
    if (fuser_diagnostics_get(diags, i, &d) != FUSER_STATUS_OK) continue;
    std::cerr << (d.file[0] ? d.file : "<unknown>") << ':' << d.line << ':' << d.column << ": " << labels[d.severity] << ": " << d.message << '\n';
    for (size_t j = 0; j < d.num_notes; ++j) {
      fuser_note n;
      if (fuser_diagnostics_note(diags, i, j, &n) == FUSER_STATUS_OK) std::cerr << "  note: " << n.message << '\n';
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " FILE PIPELINE\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << '\n';
    return 1;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string source = buffer.str();

  fuser_diagnostics *raw_diags = nullptr;
  if (fuser_diagnostics_create(&raw_diags) != FUSER_STATUS_OK) return 1;
  Diagnostics diags(raw_diags);
  fuser_context *raw_context = nullptr;
  if (fuser_context_create(0, diags.get(), &raw_context) != FUSER_STATUS_OK) return 1;
  Context context(raw_context);

  fuser_module *raw_module = nullptr;
  fuser_status status = fuser_module_parse(context.get(), argv[1], source.data(), source.size(), diags.get(), &raw_module);
  Module module(raw_module);
  if (status == FUSER_STATUS_OK) status = fuser_module_run_pipeline(module.get(), argv[2], diags.get());
  std::string text;
  if (status == FUSER_STATUS_OK) status = fuser_module_print_to(module.get(), 0, append, &text, diags.get());
  report(diags.get());
  if (status != FUSER_STATUS_OK) {
    const char *name = nullptr;
    fuser_status_string(status, &name);
    std::cerr << "failed: " << name << '\n';
    return 1;
  }
  std::cout << text;
  return 0;
}
