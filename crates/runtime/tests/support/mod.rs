//! What the tests that run CUDA C sources on the host share: compiling a C++ program with the
//! host's `c++` and running it.

use std::process::{Command, Output};

/// The C++ prelude that runs a CUDA C source's kernels on the host one thread after the other:
/// the CUDA keywords as nothing, `blockDim`/`gridDim`/`blockIdx`/`threadIdx` (x only), a
/// `launch(blocks, threads, f)` that runs every thread of the grid in turn, and the bit-cast
/// and rounding intrinsics the sources use. A test appends what its source needs beyond it.
#[allow(dead_code)]
pub const SEQUENTIAL_GRID: &str = r#"
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdio>
#define __device__
#define __global__
struct D3 { unsigned x; }; D3 blockDim{1}, gridDim{1}, blockIdx{0}, threadIdx{0};
// Runs f as `blocks` blocks of `threads` threads, one thread after the other.
template <class F> static void launch(unsigned blocks, unsigned threads, F f) {
  gridDim.x = blocks; blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) for (unsigned t = 0; t < threads; ++t) { blockIdx.x = b; threadIdx.x = t; f(); }
}
static float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float __double2float_rz(double v) { float f = (float)v; if (std::isfinite(v) && std::fabs((double)f) > std::fabs(v)) f = std::nextafter(f, 0.0f); return f; }
"#;

/// Compiles `program` with `c++ -std=<std> -O1 -pthread` in a fresh directory named after
/// `tag` and runs it. `None` (after printing why) when this machine cannot: no `c++`, or one
/// without `_Float16`; a program that does not compile for another reason panics, naming
/// `what`.
pub fn compile_and_run(tag: &str, what: &str, std: &str, program: &str) -> Option<Output> {
    let dir = std::env::temp_dir().join(format!("fuser-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cpp, exe) = (dir.join("k.cpp"), dir.join("k"));
    std::fs::write(&cpp, program).unwrap();
    let compiled =
        Command::new("c++").args([&format!("-std={std}"), "-O1", "-pthread", "-o"]).arg(&exe).arg(&cpp).output();
    match compiled {
        Ok(o) if o.status.success() => {}
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("_Float16") => {
            eprintln!("skipped: this c++ has no _Float16");
            return None;
        }
        Ok(o) => panic!("the {what} does not compile on the host:\n{}", String::from_utf8_lossy(&o.stderr)),
        Err(e) => {
            eprintln!("skipped: no c++ ({e})");
            return None;
        }
    }
    let out = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Some(out)
}
