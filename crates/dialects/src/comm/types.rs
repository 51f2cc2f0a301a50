//! The one type of the `comm` dialect: `!comm.request`, the handle of a posted communication.
//! It has no parameters; every post (`comm.allgather`, `comm.send`, `comm.group`, ...) returns
//! exactly one, and `comm.wait` consumes them.

use fuser_ir::asm::{DialectAsmParser, DialectAsmPrinter, ParseResult};
use fuser_ir::attrs::DialectParam;
use fuser_ir::context::Context;
use fuser_ir::registry::TypeDef;
use fuser_ir::types::Type;

/// `!comm.request`.
pub fn request_type(ctx: &Context) -> Type {
    ctx.dialect_type("comm", "request", Vec::new()).unwrap_or_else(|e| panic!("invalid !comm.request: {e}"))
}

/// True for `!comm.request`.
pub fn is_request(ctx: &Context, t: Type) -> bool {
    ctx.dialect_type_params(t, "comm", "request").is_some()
}

fn parse_request(_: &mut dyn DialectAsmParser) -> ParseResult<Vec<DialectParam>> {
    Ok(Vec::new())
}

fn verify_request(_: &Context, params: &[DialectParam]) -> Result<(), String> {
    if params.is_empty() { Ok(()) } else { Err("!comm.request has no parameters".into()) }
}

fn print_request(_: &mut dyn DialectAsmPrinter, _: &[DialectParam]) {}

pub static REQUEST: TypeDef = TypeDef {
    mnemonic: "request",
    summary: "The handle of a posted communication",
    description: "Every communication op posts its work to the current stream and returns a \
request at once; `comm.wait` on the request makes the then-current stream wait for the \
communication to complete. A buffer that a communication reads or writes may be reused or \
deallocated only after a wait on its request.\n\n\
```mlir\n%r = comm.allreduce sum %a into %b team = [0, 1] : !host.buf<8xf32>, !host.buf<8xf32>\n\
comm.wait %r\n```",
    parse: parse_request,
    verify: Some(verify_request),
    print: print_request,
};
