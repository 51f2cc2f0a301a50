// Emits one MLIR diagnostic of any severity, with notes, through MLIR's C++ diagnostic
// engine: MLIR 19's C API can only emit bare errors (mlirEmitError).

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

#include <cstddef>

extern "C" void fuser_bridge_emit_diagnostic(MlirLocation loc, unsigned severity, MlirStringRef message,
                                             const MlirLocation *note_locs, const MlirStringRef *notes,
                                             size_t num_notes) {
  mlir::Location where = unwrap(loc);
  mlir::InFlightDiagnostic diag = severity == 1   ? mlir::emitWarning(where)
                                  : severity >= 2 ? mlir::emitRemark(where)
                                                  : mlir::emitError(where);
  diag << unwrap(message);
  for (size_t i = 0; i < num_notes; ++i)
    diag.attachNote(unwrap(note_locs[i])) << unwrap(notes[i]);
}
