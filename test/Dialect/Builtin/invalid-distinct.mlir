// RUN: fuser-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected '[' after 'distinct'}}
#attr = distinct<

// -----

// expected-error @+1 {{expected an unsigned 64-bit integer}}
#attr = distinct[0xAAAABBBBEEEEFFFF1]

// -----

// expected-error @+1 {{expected '>' to close distinct attribute}}
#attr = distinct[8]<@foo]

// -----

#attr = distinct[0]<42 : i32>
// expected-error @+1 {{referenced attribute does not match previous definition: 42 : i32}}
#attr1 = distinct[0]<43 : i32>
