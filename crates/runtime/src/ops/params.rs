//! [`Params`]: the parameters of a named kernel, decoded once from the fusion op's properties
//! (the `params` dictionary of `host.kernel`): integers, floats, `array<i64>` lists, unit or
//! boolean flags and strings. Getters name the kernel's parameter in their errors.

use crate::error::{RtError, RtResult};
use fuser_ir::attrs::{Attr, AttrKind, DenseArrayData};
use fuser_ir::context::Context;

/// One parameter value.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Int(i64),
    Float(f64),
    Ints(Vec<i64>),
    /// A unit attribute, or `true`.
    Flag,
    Str(String),
}

/// A kernel's parameters by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    entries: Vec<(String, Param)>,
}

impl Params {
    pub fn new(entries: Vec<(String, Param)>) -> Params {
        Params { entries }
    }

    /// Decodes a dictionary attribute; an attribute of another kind is an error naming it.
    /// `false` is left out (an absent flag).
    pub fn from_attr(ctx: &Context, dict: Attr) -> RtResult<Params> {
        let AttrKind::Dictionary(_) = ctx.attr_kind(dict) else {
            return Err(RtError::new("kernel parameters must be a dictionary"));
        };
        let mut entries = Vec::new();
        for &(key, value) in ctx.dict_entries(dict) {
            let name = ctx.ident_str(key).to_string();
            let param = match ctx.attr_kind(value) {
                AttrKind::Unit => Param::Flag,
                AttrKind::Bool(true) => Param::Flag,
                AttrKind::Bool(false) => continue,
                AttrKind::Float { bits, ty } => match float_value(ctx, *ty, *bits) {
                    Some(f) => Param::Float(f),
                    None => return Err(RtError::new(format!("kernel parameter '{name}': unreadable float"))),
                },
                AttrKind::Integer { .. } => match ctx.attr_i64(value) {
                    Some(i) => Param::Int(i),
                    None => return Err(RtError::new(format!("kernel parameter '{name}': integer out of range"))),
                },
                AttrKind::DenseArray { data: DenseArrayData::Int(v), .. } => Param::Ints(v.clone()),
                _ => match ctx.attr_str(value) {
                    Some(s) => Param::Str(s.to_string()),
                    None => {
                        let text = fuser_ir::printer::print_attr(ctx, value);
                        return Err(RtError::new(format!("kernel parameter '{name}': unsupported attribute {text}")));
                    }
                },
            };
            entries.push((name, param));
        }
        Ok(Params { entries })
    }

    /// The same parameters without `name`.
    pub fn without(mut self, name: &str) -> Params {
        self.entries.retain(|(k, _)| k != name);
        self
    }

    pub fn get(&self, name: &str) -> Option<&Param> {
        self.entries.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    fn missing(name: &str, what: &str) -> RtError {
        RtError::new(format!("kernel parameter '{name}' must be {what}"))
    }

    /// An integer parameter.
    pub fn int(&self, name: &str) -> RtResult<i64> {
        match self.get(name) {
            Some(Param::Int(i)) => Ok(*i),
            _ => Err(Params::missing(name, "an integer")),
        }
    }

    /// A float parameter (an integer is accepted and converted).
    pub fn float(&self, name: &str) -> RtResult<f64> {
        match self.get(name) {
            Some(Param::Float(f)) => Ok(*f),
            Some(Param::Int(i)) => Ok(*i as f64),
            _ => Err(Params::missing(name, "a float")),
        }
    }

    /// A float parameter, or `default` when absent.
    pub fn float_or(&self, name: &str, default: f64) -> RtResult<f64> {
        if self.get(name).is_none() { Ok(default) } else { self.float(name) }
    }

    /// An `array<i64>` parameter.
    pub fn ints(&self, name: &str) -> RtResult<Vec<i64>> {
        match self.get(name) {
            Some(Param::Ints(v)) => Ok(v.clone()),
            _ => Err(Params::missing(name, "an array<i64>")),
        }
    }

    /// Whether a flag (unit attribute or `true`) is set.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Param::Flag))
    }

    /// A string parameter.
    pub fn str(&self, name: &str) -> RtResult<&str> {
        match self.get(name) {
            Some(Param::Str(s)) => Ok(s),
            _ => Err(Params::missing(name, "a string")),
        }
    }
}

/// The value of a float attribute of type `ty` with `bits`, as an `f64` (rounded to nearest).
pub fn float_value(ctx: &Context, ty: fuser_ir::Type, bits: u128) -> Option<f64> {
    use fuser_ir::apfloat::{ApFloat, RoundingMode};
    use fuser_ir::types::{FloatKind, TypeKind};
    let TypeKind::Float(kind) = ctx.type_kind(ty) else { return None };
    let x = ApFloat::from_bits(*kind, bits)?;
    let (wide, _, _) = x.convert(FloatKind::F64, RoundingMode::NearestTiesToEven);
    Some(f64::from_bits(wide.to_bits() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fuser_ir::types::FloatKind;

    fn f64_attr(ctx: &Context, v: f64) -> Attr {
        ctx.intern_attr(AttrKind::Float { bits: v.to_bits() as u128, ty: ctx.float_type(FloatKind::F64) })
    }

    #[test]
    fn decodes_every_kind_and_names_bad_ones() {
        let ctx = Context::new(fuser_dialects::registry());
        let dict = ctx.dictionary(vec![
            (ctx.ident("dims"), fuser_dialects::host::i64_array_attr(&ctx, &[1, 2])),
            (ctx.ident("causal"), ctx.unit_attr()),
            (ctx.ident("p"), f64_attr(&ctx, 0.25)),
            (ctx.ident("n"), ctx.int_attr(ctx.i64_type(), 7)),
            (ctx.ident("approximate"), ctx.string_attr("tanh")),
        ]);
        let p = Params::from_attr(&ctx, dict).unwrap();
        assert_eq!(p.ints("dims").unwrap(), vec![1, 2]);
        assert!(p.flag("causal") && !p.flag("absent"));
        assert_eq!(p.float("p").unwrap(), 0.25);
        assert_eq!(p.float("n").unwrap(), 7.0);
        assert_eq!(p.int("n").unwrap(), 7);
        assert_eq!(p.str("approximate").unwrap(), "tanh");
        assert_eq!(p.float_or("eps", 1e-5).unwrap(), 1e-5);
        assert!(p.int("p").unwrap_err().to_string().contains("'p' must be an integer"));
        assert!(Params::from_attr(&ctx, ctx.unit_attr()).is_err());
    }
}
