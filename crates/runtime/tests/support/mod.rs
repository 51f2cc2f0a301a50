//! What the tests that run CUDA C sources on the host share: compiling a C++ program with the
//! host's `c++` and running it.

use std::process::{Command, Output};

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
