/* fuser.h: the C ABI of fuser (crates/capi).
 * Generated from the Rust source by crates/capi/tests/header; do not edit. After changing the ABI run
 * FUSER_BLESS=1 cargo test -p fuser-capi --test header */
#ifndef FUSER_H
#define FUSER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * fuser's C ABI: compile fuser programs from C, C++ or any language with a C FFI.
 *
 * Usage: create a context, parse MLIR text into a module, run a pass pipeline written in
 * MLIR's pipeline syntax (e.g. `builtin.module(tp-default)`), verify, print into a caller
 * buffer or through a callback, and free every handle with its destroy function.
 *
 * Status: every function returns a `fuser_status`; `FUSER_STATUS_OK` is 0. A NULL pointer
 * argument gives `FUSER_STATUS_NULL_ARGUMENT`, text that is not UTF-8 gives
 * `FUSER_STATUS_INVALID_UTF8`, and a failure the compiler diagnosed gives
 * `FUSER_STATUS_ERROR`. Functions that take a `fuser_diagnostics *` (which may be NULL) append
 * their diagnostics to it, also for argument errors. Nothing unwinds across this boundary: an
 * internal panic is caught, returned as `FUSER_STATUS_INTERNAL_ERROR` and recorded as an error
 * diagnostic. The library writes nothing to stdout or stderr (a panic inside the compiler is
 * recorded by a panic hook that stays quiet, see the Rust facade).
 *
 * Pointers (the safety contract of every function): each pointer argument is NULL or valid
 * for its use: a live handle of this library not destroyed yet, a readable NUL-terminated
 * string (or `len` readable bytes), a writable result. NULL is reported as a status; a
 * dangling or misaligned pointer is undefined behaviour, as in any C library.
 *
 * Strings: input strings are NUL-terminated UTF-8, except module text, which is passed with
 * its length. Strings returned inside records are NUL-terminated UTF-8 owned by the
 * diagnostics object, valid until it is cleared or destroyed.
 *
 * Thread safety: a `fuser_context` may be used by several threads at once (parsing with one
 * context from many threads is fine). A `fuser_module` or `fuser_diagnostics` must not be used
 * by two threads at the same time, but may be handed from one thread to another. A module
 * keeps its context alive: the context may be destroyed before its modules.
 *
 * Stack: the parser caps nesting at 512 levels; parsing, canonicalize, cse and printing at
 * that depth fit in a 2 MiB thread stack. For untrusted, deeply nested input and other
 * passes, call from a thread with a larger stack (fuser-opt uses 256 MiB).
 */

/** The result of every function of the C ABI. */
typedef enum fuser_status {
  /** Success. */
  FUSER_STATUS_OK = 0,
  /** The compiler diagnosed a failure (parse, verify or pipeline error); see the diagnostics. */
  FUSER_STATUS_ERROR = 1,
  /** A required pointer argument was NULL. */
  FUSER_STATUS_NULL_ARGUMENT = 2,
  /** A string argument was not valid UTF-8. */
  FUSER_STATUS_INVALID_UTF8 = 3,
  /** The caller's buffer is too small; the needed size was stored. */
  FUSER_STATUS_BUFFER_TOO_SMALL = 4,
  /** An index was out of range. */
  FUSER_STATUS_OUT_OF_RANGE = 5,
  /** The write callback returned non-zero; printing stopped. */
  FUSER_STATUS_CALLBACK_FAILED = 6,
  /** An internal error (a caught panic); an error diagnostic describes it. */
  FUSER_STATUS_INTERNAL_ERROR = 7,
} fuser_status;

/**
 * A static, NUL-terminated English name of a status (e.g. `"null argument"`); unknown
 * values give `"unknown status"`. Stores it in `*out`.
 */
fuser_status fuser_status_string(uint32_t status, const char **out);

/** The library version (e.g. `"0.1.0"`), static and NUL-terminated, stored in `*out`. */
fuser_status fuser_version(const char **out);

/** How serious a diagnostic is. */
typedef enum fuser_severity {
  /** The operation failed. */
  FUSER_SEVERITY_ERROR = 0,
  /** Suspicious, but the operation went on. */
  FUSER_SEVERITY_WARNING = 1,
  /** Information a pass reports. */
  FUSER_SEVERITY_REMARK = 2,
  /** Additional information. */
  FUSER_SEVERITY_NOTE = 3,
} fuser_severity;

/** One diagnostic. Strings are owned by the diagnostics object. */
typedef struct fuser_diagnostic {
  /** How serious it is. */
  fuser_severity severity;
  /** The buffer name it points into; `""` when it has no file location. */
  const char *file;
  /** 1-based line; 0 when it has no file location. */
  uint32_t line;
  /** 1-based column; 0 when it has no file location. */
  uint32_t column;
  /** The message, without location or severity. */
  const char *message;
  /** The text fuser-opt prints for it (header, source line, caret, notes), newline-ended. */
  const char *rendered;
  /** The number of notes (read them with `fuser_diagnostics_note`). */
  size_t num_notes;
} fuser_diagnostic;

/** A note attached to a diagnostic. Strings are owned by the diagnostics object. */
typedef struct fuser_note {
  /** The buffer name it points into; `""` when it has no file location. */
  const char *file;
  /** 1-based line; 0 when it has no file location. */
  uint32_t line;
  /** 1-based column; 0 when it has no file location. */
  uint32_t column;
  /** The note's text. */
  const char *message;
} fuser_note;

/** A growing list of diagnostics (opaque). */
typedef struct fuser_diagnostics fuser_diagnostics;

/** Creates an empty diagnostics object in `*out`. */
fuser_status fuser_diagnostics_create(fuser_diagnostics **out);

/** Frees a diagnostics object and the strings of its records. */
fuser_status fuser_diagnostics_destroy(fuser_diagnostics *diags);

/** Removes every diagnostic (records read before become invalid). */
fuser_status fuser_diagnostics_clear(fuser_diagnostics *diags);

/** Stores the number of diagnostics in `*count`. */
fuser_status fuser_diagnostics_count(const fuser_diagnostics *diags, size_t *count);

/** Reads diagnostic `index` (0-based, in report order) into `*out`. */
fuser_status fuser_diagnostics_get(const fuser_diagnostics *diags, size_t index, fuser_diagnostic *out);

/** Reads note `note` of diagnostic `index` into `*out`. */
fuser_status fuser_diagnostics_note(const fuser_diagnostics *diags, size_t index, size_t note, fuser_note *out);

/**
 * Copies the rendered text of every diagnostic, concatenated and NUL-terminated, into `buf`
 * of `capacity` bytes. `*needed` receives the size required, NUL included; when `capacity`
 * is smaller, nothing is written and `FUSER_STATUS_BUFFER_TOO_SMALL` is returned (`buf` may be
 * NULL when `capacity` is 0, to ask for the size).
 */
fuser_status fuser_diagnostics_render(const fuser_diagnostics *diags, char *buf, size_t capacity, size_t *needed);

/** Flag of `fuser_context_create`: run pipelines on one thread. */
#define FUSER_CONTEXT_NO_THREADING 1u

/** Flag of `fuser_context_create`: accept ops of unregistered dialects, kept verbatim. */
#define FUSER_CONTEXT_ALLOW_UNREGISTERED 2u

/** A compiler: fuser's dialects, passes and named pipelines (opaque; thread-safe). */
typedef struct fuser_context fuser_context;

/**
 * Creates a context in `*out`; `flags` is 0 or an OR of `FUSER_CONTEXT_*` flags (unknown bits
 * are an error reported to `diags`).
 */
fuser_status fuser_context_create(uint32_t flags, fuser_diagnostics *diags, fuser_context **out);

/** Frees a context. Modules made with it stay valid (they keep what they need alive). */
fuser_status fuser_context_destroy(fuser_context *context);

/** Print flag: every op in the generic form. */
#define FUSER_PRINT_GENERIC 1u

/** Print flag: print locations. */
#define FUSER_PRINT_DEBUG_INFO 2u

/** Print flag: no aliases, everything inline. */
#define FUSER_PRINT_LOCAL_SCOPE 4u

/** Print flag: number values across all regions (`--mlir-print-unique-ssa-ids`). */
#define FUSER_PRINT_UNIQUE_SSA_IDS 8u

/** Print flag: comment ops and block arguments with their users (`--mlir-print-value-users`). */
#define FUSER_PRINT_VALUE_USERS 16u

/** A program: a `builtin.module` (opaque). */
typedef struct fuser_module fuser_module;

/**
 * Receives printed text: `len` bytes at `data` (not NUL-terminated) and the caller's `user`
 * pointer. Returns 0 to continue, anything else to stop printing.
 */
typedef int32_t (*fuser_write_fn)(const char *data, size_t len, void *user);

/**
 * Parses `text` (`text_len` bytes of UTF-8, no NUL needed) and verifies it. `name` is the
 * buffer name diagnostics report. On success stores a new module in `*out`; on failure
 * returns `FUSER_STATUS_ERROR` with the diagnostics appended to `diags` (if not NULL).
 */
fuser_status fuser_module_parse(const fuser_context *context, const char *name, const char *text, size_t text_len, fuser_diagnostics *diags, fuser_module **out);

/**
 * Runs a pipeline written in MLIR's syntax, e.g. `"builtin.module(tp-default)"`. Warnings and
 * remarks are appended to `diags` also on success. After a failure the module may be partly
 * transformed.
 */
fuser_status fuser_module_run_pipeline(fuser_module *module, const char *pipeline, fuser_diagnostics *diags);

/** Verifies the module; on failure returns `FUSER_STATUS_ERROR` with the diagnostics. */
fuser_status fuser_module_verify(const fuser_module *module, fuser_diagnostics *diags);

/**
 * Prints the module (as fuser-opt does; `flags` is 0 or an OR of `FUSER_PRINT_*`) into `buf`
 * of `capacity` bytes, NUL-terminated. `*needed` receives the size required, NUL included;
 * when `capacity` is smaller nothing is written and `FUSER_STATUS_BUFFER_TOO_SMALL` is
 * returned (`buf` may be NULL when `capacity` is 0, to ask for the size).
 */
fuser_status fuser_module_print(const fuser_module *module, uint32_t flags, char *buf, size_t capacity, size_t *needed, fuser_diagnostics *diags);

/**
 * Prints the module through `write`, called with consecutive pieces of the text (no NUL) and
 * `user`; `FUSER_STATUS_CALLBACK_FAILED` when it returns non-zero.
 */
fuser_status fuser_module_print_to(const fuser_module *module, uint32_t flags, fuser_write_fn write, void *user, fuser_diagnostics *diags);

/** Frees a module. */
fuser_status fuser_module_destroy(fuser_module *module);

#ifdef __cplusplus
}
#endif

#endif /* FUSER_H */
