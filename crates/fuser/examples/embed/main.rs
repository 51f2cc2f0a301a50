//! Embeds fuser with an outside dialect and pass: registers the `trace` dialect and the
//! `trace-strip-tags` pass (`trace.rs`) next to fuser's own, parses a row-parallel linear
//! whose result a tracer tagged, and runs `builtin.module(trace-strip-tags, tp-default)`:
//! the outside pass runs first, then fuser's lowering to a host program.
//!
//! Run with `cargo run -p fuser --example embed`.

mod trace;

use fuser::{Compiler, PrintOptions};

/// The program a tracer produced: `y = x·wᵀ` with K split over 4 devices, tagged `mlp.down`.
pub const TRACED: &str = r#"fusion.mesh @tp = [0, 1, 2, 3]
func.func @mlp_down(%x: tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
                    %w: tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)
    -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>> {
  %y = fusion.linear %x, %w
      : (tensor<48x256xbf16, #fusion.shard<@tp, [[Stream(3)], [DIDx]]>>,
         tensor<64x256xbf16, #fusion.shard<@tp, [[], [DIDx]]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  %t = "trace.tag"(%y) <{name = "mlp.down"}>
      : (tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>)
      -> tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
  return %t : tensor<48x64xbf16, #fusion.shard<@tp, [[Stream(3)], []]>>
}
"#;

fn main() -> Result<(), fuser::Error> {
    let compiler = Compiler::builder().dialect(&trace::TRACE).pass(&trace::STRIP_TAGS).build()?;
    let mut module = compiler.parse("traced.mlir", TRACED)?;
    let remarks = compiler.run_pipeline(&mut module, "builtin.module(trace-strip-tags, tp-default)")?;
    for remark in &remarks {
        eprint!("{}", remark.rendered);
    }
    print!("{}", compiler.print(&module, &PrintOptions::default()));
    Ok(())
}
