// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected '<' after 'dense_resource'}}
#attr = dense_resource>

// -----

// expected-error @+1 {{`dense_resource` expected a shaped type}}
#attr = dense_resource<resource> : i32

// -----

// expected-error@+3 {{dialect 'foobar' is unknown}}
{-#
  dialect_resources: {
    foobar: {
      entry: "foo"
    }
  }
#-}

// -----

// expected-error@+4 {{expected hex string blob for key 'invalid_blob' to encode alignment in first 4 bytes}}
{-#
  dialect_resources: {
    builtin: {
      invalid_blob: "0x"
    }
  }
#-}
