//! [`OpPath`]: the position of an op below a root op, as (region, block, op) indices per
//! level. The MLIR side wraps the op a pass runs on into copies of its ancestors (its symbol
//! context) and says where the op sits with a path; the same path finds the op again after
//! the text crossed to fuser and back.

use fuser_ir::{Ir, OpId};

/// One step down: the `op`-th op of the `block`-th block of the `region`-th region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub region: usize,
    pub block: usize,
    pub op: usize,
}

/// Steps from a root op down to a nested op; empty names the root itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpPath {
    pub steps: Vec<Step>,
}

impl OpPath {
    /// The root itself.
    pub fn root() -> OpPath {
        OpPath::default()
    }

    /// Parses the flat form `r,b,o,r,b,o,...` used across the C ABI (empty: the root).
    pub fn from_flat(indices: &[usize]) -> Result<OpPath, String> {
        if indices.len() % 3 != 0 {
            return Err(format!("an op path has 3 indices per level, got {}", indices.len()));
        }
        let steps = indices.chunks_exact(3).map(|c| Step { region: c[0], block: c[1], op: c[2] }).collect();
        Ok(OpPath { steps })
    }

    /// The op at this path below `root` in `ir`, if there is one.
    pub fn find(&self, ir: &Ir, root: OpId) -> Option<OpId> {
        let mut op = root;
        for step in &self.steps {
            let region = *ir.regions(op).get(step.region)?;
            let block = *ir.region_blocks(region).get(step.block)?;
            op = ir.block_ops(block).nth(step.op)?;
        }
        Some(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::Context;
    use fuser_ir::diag::SourceFile;

    #[test]
    fn finds_nested_ops_and_rejects_bad_paths() {
        let ctx = Context::new(fuser_dialects::registry());
        ctx.set_allow_unregistered(true);
        let src = "\"a.x\"() : () -> ()\n\"a.y\"() ({\n  \"a.z\"() : () -> ()\n  \"a.w\"() : () -> ()\n}) : () -> ()\n";
        let mut ir = Ir::new();
        let root = fuser_ir::parser::parse_source(&ctx, &mut ir, &SourceFile::new("t", src.into())).unwrap();
        let path = OpPath::from_flat(&[0, 0, 1, 0, 0, 1]).unwrap();
        let found = path.find(&ir, root).unwrap();
        assert_eq!(ctx.op_name_str(ir.op_name(found)), "a.w");
        assert_eq!(OpPath::root().find(&ir, root), Some(root));
        assert!(OpPath::from_flat(&[0, 0, 2]).unwrap().find(&ir, root).is_none());
        assert!(OpPath::from_flat(&[0, 0]).is_err());
    }
}
