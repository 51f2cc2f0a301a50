//! The executor of host programs: `prepare` turns a host function into a [`Program`] once,
//! `run` interprets it for one rank over a [`Backend`], `capture` plans graph capture and
//! replay, `access` says what each operation reads and writes. The backends live beside:
//! `crate::cpu` (the embedded backend: N ranks as threads of one process) and `crate::cuda`.

pub mod access;
pub mod backend;
pub mod capture;
pub mod prepare;
pub mod run;

pub use crate::cpu::backend::CpuBackend;
pub use backend::{Backend, CommOp, Kernel};
pub use prepare::{Instr, Program, prepare};
pub use run::run_program;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::View;
    use crate::dtype::DType;
    use fuser_ir::diag::SourceFile;
    use fuser_ir::{Context, Ir};
    use std::time::Duration;

    /// Parses `text`, prepares its first function and runs it on `ranks` cpu ranks with the
    /// given per-rank argument values; returns each rank's outputs.
    fn run_text(
        text: &str,
        ranks: usize,
        args: impl Fn(usize) -> Vec<(Vec<usize>, Vec<f64>)> + Sync,
    ) -> Vec<Vec<Vec<f64>>> {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let module =
            fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).expect("parses");
        let func = crate::driver::first_function(&ctx, &ir, module).expect("a function");
        let prog = prepare(&ctx, &ir, func).expect("prepares");
        let backend = CpuBackend::new(ranks, false, Duration::from_secs(5));
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..ranks)
                .map(|r| {
                    let (prog, backend, args) = (&prog, &backend, &args);
                    s.spawn(move || {
                        let bufs: Vec<View> = args(r)
                            .into_iter()
                            .map(|(shape, vals)| {
                                let v = CpuBackend::new_buffer(DType::F32, &shape).unwrap();
                                v.write(&vals).unwrap();
                                v
                            })
                            .collect();
                        let outs = run_program(prog, backend, r, &bufs).expect("runs");
                        outs.iter().map(View::read).collect::<Vec<_>>()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn loop_views_and_index_math() {
        // out[i] = a[i] + b[3 - i] chunk by chunk, through slices, selects and a loop.
        let text = r#"
func.func @f(%a: !host.buf<4x2xf32>, %b: !host.buf<4x2xf32>) -> !host.buf<4x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %out = host.alloc() : !host.buf<4x2xf32>
  host.for %i = %c0 to %c4 step %c1 {
    %j = arith.subi %c3, %i : index
    %x = host.shard_by_stream %a[%i] axis = 0 chunks = 4 : !host.buf<4x2xf32> -> !host.view<1x2xf32, strides = [2, 1]>
    %y = host.slice %b[%j, 0] [1, 2] [1, 1] : !host.buf<4x2xf32> -> !host.view<1x2xf32, strides = [2, 1]>
    %o = host.shard_by_stream %out[%i] axis = 0 chunks = 4 : !host.buf<4x2xf32> -> !host.view<1x2xf32, strides = [2, 1]>
    host.elementwise add %x, %y into %o : !host.view<1x2xf32, strides = [2, 1]>, !host.view<1x2xf32, strides = [2, 1]>, !host.view<1x2xf32, strides = [2, 1]>
  }
  return %out : !host.buf<4x2xf32>
}"#;
        let out =
            run_text(text, 1, |_| vec![(vec![4, 2], (0..8).map(f64::from).collect()), (vec![4, 2], vec![100.0; 8])]);
        assert_eq!(out[0][0], vec![100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0]);
    }

    #[test]
    fn rank_dependent_ifs_and_a_ring_of_sends() {
        // Each rank sends its buffer to the next and receives from the previous; rank 0 then
        // doubles what it got.
        let text = r#"
func.func @ring(%a: !host.buf<2xf32>) -> !host.buf<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = host.rank : index
  %n = host.world_size : index
  %r1 = arith.addi %r, %c1 : index
  %next = arith.remui %r1, %n : index
  %rn = arith.addi %r, %n : index
  %rm = arith.subi %rn, %c1 : index
  %prev = arith.remui %rm, %n : index
  %got = host.alloc() : !host.buf<2xf32>
  %g = comm.group {
    %s = comm.send %a to %next : !host.buf<2xf32>
    %q = comm.recv %got from %prev : !host.buf<2xf32>
  }
  comm.wait %g
  %is0 = arith.cmpi eq, %r, %c0 : index
  host.if %is0 {
    host.elementwise add %got, %got into %got : !host.buf<2xf32>, !host.buf<2xf32>, !host.buf<2xf32>
  }
  return %got : !host.buf<2xf32>
}"#;
        let out = run_text(text, 3, |r| vec![(vec![2], vec![r as f64, 10.0 * r as f64])]);
        assert_eq!(out[0][0], vec![4.0, 40.0]);
        assert_eq!(out[1][0], vec![0.0, 0.0]);
        assert_eq!(out[2][0], vec![1.0, 10.0]);
    }

    #[test]
    fn unsupported_ops_are_prepare_errors() {
        let ctx = Context::new(fuser_dialects::registry());
        let mut ir = Ir::new();
        let text = "func.func @f() {\n  %c = arith.constant 1.0 : f32\n  return\n}";
        let m = fuser_ir::parser::parse_source_all(&ctx, &mut ir, &SourceFile::new("t.mlir", text.into())).unwrap();
        let f = crate::driver::first_function(&ctx, &ir, m).unwrap();
        let (_, msg) = prepare(&ctx, &ir, f).unwrap_err();
        assert!(msg.contains("integer constants"), "{msg}");
    }
}
