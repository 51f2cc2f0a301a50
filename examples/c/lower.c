/* Lowers an MLIR file with a pass pipeline through fuser's C ABI and prints the result, as
 * `fuser-opt --pass-pipeline=PIPELINE FILE` does.
 *
 *   cc -std=c11 -I include examples/c/lower.c target/debug/libfuser.a -lpthread -ldl -lm -o lower
 *   ./lower examples/row_parallel_linear.mlir 'builtin.module(tp-default)'
 *
 * Prints into a caller buffer with the size protocol: ask for the size, allocate, print.
 * On failure the diagnostics go to stderr as fuser-opt renders them; exit status 1. */
#include "fuser.h"

#include <stdio.h>
#include <stdlib.h>

/* The whole file in a malloc'ed buffer (not NUL-terminated); NULL on failure. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) free(buf);
      buf = bigger;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Writes every diagnostic's rendered text to stderr. */
static void report(const fuser_diagnostics *diags) {
  size_t count = 0;
  fuser_diagnostics_count(diags, &count);
  for (size_t i = 0; i < count; i++) {
    fuser_diagnostic d;
    if (fuser_diagnostics_get(diags, i, &d) == FUSER_STATUS_OK) fputs(d.rendered, stderr);
  }
}

/* The module's text in a malloc'ed NUL-terminated buffer; NULL on failure. */
static char *print_module(const fuser_module *module, fuser_diagnostics *diags) {
  size_t needed = 0;
  if (fuser_module_print(module, 0, NULL, 0, &needed, diags) != FUSER_STATUS_BUFFER_TOO_SMALL) return NULL;
  char *text = malloc(needed);
  if (text && fuser_module_print(module, 0, text, needed, &needed, diags) != FUSER_STATUS_OK) {
    free(text);
    text = NULL;
  }
  return text;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s FILE PIPELINE\n", argv[0]);
    return 2;
  }
  size_t len = 0;
  char *source = read_file(argv[1], &len);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  fuser_diagnostics *diags = NULL;
  fuser_context *context = NULL;
  fuser_module *module = NULL;
  char *text = NULL;
  int ok = fuser_diagnostics_create(&diags) == FUSER_STATUS_OK &&
           fuser_context_create(0, diags, &context) == FUSER_STATUS_OK &&
           fuser_module_parse(context, argv[1], source, len, diags, &module) == FUSER_STATUS_OK &&
           fuser_module_run_pipeline(module, argv[2], diags) == FUSER_STATUS_OK &&
           (text = print_module(module, diags)) != NULL;
  if (diags) report(diags);
  if (ok) fputs(text, stdout);
  free(text);
  if (module) fuser_module_destroy(module);
  if (context) fuser_context_destroy(context);
  if (diags) fuser_diagnostics_destroy(diags);
  free(source);
  return ok ? 0 : 1;
}
