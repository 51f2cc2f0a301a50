"""Type stubs of the native module `fuser._fuser` (python/src/*.rs)."""

from typing import List, Optional, Sequence, Tuple, Union

class FuserError(Exception):
    """A failure of fuser: the diagnostics of a parse, verification, pass, build or run.

    `str()` is the rendered text (as `fuser-opt` prints it, source line and caret included);
    the attributes are those of the first error diagnostic."""

    diagnostics: List[Diagnostic]
    file: Optional[str]
    line: int
    column: int
    message: str
    notes: List[Note]

class FuserValueError(FuserError, ValueError):
    """An argument with a value fuser cannot use (a FuserError and a ValueError)."""

class FuserTypeError(FuserError, TypeError):
    """An argument of a type fuser cannot use (a FuserError and a TypeError)."""

class FuserOverflowError(FuserError, OverflowError):
    """An integer argument out of range (a FuserError and an OverflowError)."""

def argument_error(
    kind: str, message: str, loc: Optional[Tuple[str, int, int]] = None, sources: Sequence[Tuple[str, str]] = ()
) -> FuserError:
    """The exception for a bad argument (`kind`: "value", "type" or "overflow") at `loc`."""

class Note:
    """A note attached to a diagnostic (file None and line/column 0 without location)."""

    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def message(self) -> str: ...

class Diagnostic:
    """One diagnostic: severity, location, message, notes and the rendered text."""

    @property
    def severity(self) -> str:
        """"error", "warning", "remark" or "note"."""
    @property
    def file(self) -> Optional[str]: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def message(self) -> str: ...
    @property
    def notes(self) -> List[Note]: ...
    @property
    def rendered(self) -> str: ...

class Compiler:
    """fuser's dialects, passes and named pipelines."""

    def __init__(self, *, threading: bool = True, verify_each: bool = True) -> None: ...
    def parse(self, text: str, name: str = "<string>") -> Module:
        """Parses and verifies MLIR text; `name` is the file name diagnostics use."""
    def run_pipeline(self, module: Module, pipeline: str) -> List[Diagnostic]:
        """Runs `pipeline` (MLIR pipeline syntax) on `module` in place; the warnings/remarks."""
    def verify(self, module: Module) -> None: ...
    def print(
        self, module: Module, *, generic: bool = False, debug_info: bool = False, local_scope: bool = False,
        unique_ssa_ids: bool = False, value_users: bool = False,
        elide_elements_larger_than: Optional[int] = None,
        elide_resource_strings_larger_than: Optional[int] = None,
    ) -> str:
        """The text of `module`; the keywords are `Module.print`'s."""
    def pass_names(self) -> List[str]: ...
    def has_pass(self, name: str) -> bool: ...

class Module:
    """A program (a builtin.module) of a compiler."""

    def run_pipeline(self, pipeline: str) -> List[Diagnostic]:
        """Runs `pipeline` in place; returns the warnings and remarks."""
    def verify(self) -> None: ...
    def print(
        self, *, generic: bool = False, debug_info: bool = False, local_scope: bool = False,
        unique_ssa_ids: bool = False, value_users: bool = False,
        elide_elements_larger_than: Optional[int] = None,
        elide_resource_strings_larger_than: Optional[int] = None,
    ) -> str:
        """The module's text, with mlir-opt's printing flags as keywords (`generic`:
        --mlir-print-op-generic, `debug_info`: --mlir-print-debuginfo, `local_scope`,
        `unique_ssa_ids`, `value_users`, `elide_elements_larger_than`,
        `elide_resource_strings_larger_than`: the --mlir-print-/--mlir-elide- flags of the
        same names)."""
    def clone(self) -> Module: ...
    def num_ops(self) -> int: ...

class Program:
    """The native half of FusionDefinition (records checked by rebuilding the program).

    A `sharding` argument is any object with `splits` (per axis a list of "DIDx"/"DIDy"/
    "DIDz" or a stream chunk count), `partial` (device axis names) and `reduce` attributes,
    as `fuser.Sharding` has."""

    def __init__(
        self,
        compiler: Compiler,
        name: str,
        mesh: Optional[Tuple[str, Sequence[int], Sequence[int]]],
        loc: Tuple[str, int, int],
    ) -> None: ...
    def add_source(self, name: str, text: str) -> None: ...
    def check(self) -> None: ...
    def input(self, shape: Sequence[int], dtype: str, sharding: Optional[object], loc: Tuple[str, int, int]) -> int: ...
    def op(
        self,
        op: str,
        operands: Sequence[int],
        sharding: Optional[object],
        loc: Tuple[str, int, int],
        *,
        dims: Sequence[int] = ...,
        keep_dims: bool = ...,
        new_axes: Sequence[Tuple[int, int]] = ...,
        shape: Sequence[int] = ...,
        dtype: Optional[str] = ...,
    ) -> int: ...
    def generic(
        self,
        op: str,
        operands: Sequence[int],
        shardings: Sequence[Optional[object]],
        loc: Tuple[str, int, int],
        attrs: Sequence[Tuple[str, Union[bool, int, float, Sequence[int], str, Tuple[float, str]]]],
        types: Optional[Sequence[Tuple[Sequence[int], str]]] = None,
    ) -> List[int]:
        """Appends `fusion.<op>` with the properties `attrs` (`False` flags are left out; a
        `(value, dtype)` pair is a typed value; `operandSegmentSizes` becomes an
        `array<i32>`) and one sharding per result, its result types inferred by the op or
        given by `types` (`(shape, dtype)` per result); the value index of every result."""
    def output(self, value: int, loc: Tuple[str, int, int]) -> None: ...
    def shape(self, value: int) -> List[int]: ...
    def dtype(self, value: int) -> str: ...
    def num_inputs(self) -> int: ...
    def inputs(self) -> List[int]: ...
    def outputs(self) -> List[int]: ...
    def module(self) -> Module: ...

def run_cpu(
    module: Module,
    inputs: Sequence[Tuple[Sequence[int], bytes]],
    *,
    ranks: Optional[int] = None,
    pipeline: str = "builtin.module(tp-default)",
    check: bool = False,
    timeout_s: float = 60.0,
) -> Tuple[List[Tuple[List[int], str, bytes]], List[Tuple[float, float]]]:
    """Runs `module` on the cpu backend with global inputs (shape, float64 bytes; i1 as 0/1);
    the gathered outputs (shape, dtype name, float64 bytes) and, with `check`, each output's
    (relative error, tolerance)."""

class Gradients:
    """The derivative of one function (`autodiff`): three modules and how to call them."""

    @property
    def vjp(self) -> Module:
        """`@NAME_vjp`: arguments, then cotangents -> results, then gradients."""
    @property
    def fwd(self) -> Module:
        """`@NAME_fwd`: arguments -> results, then the saved values."""
    @property
    def bwd(self) -> Module:
        """`@NAME_bwd`: saved values, then cotangents -> gradients."""
    @property
    def saved(self) -> List[str]:
        """What each saved value is (`@NAME_fwd`'s `fusion.saved`)."""
    @property
    def wrt(self) -> List[int]:
        """The differentiated arguments (indices), one gradient each."""
    @property
    def cotangents(self) -> List[bool]:
        """Per result of `@NAME`: whether it takes a cotangent (floating-point)."""

def autodiff(
    module: Module, func: str, wrt: Optional[Sequence[int]] = None, loc: Optional[Tuple[str, int, int]] = None
) -> Gradients:
    """Differentiates `@func` of `module` (left unchanged) with respect to the arguments `wrt`
    (default: every floating-point one); an error without location is placed at `loc`."""

def signature(module: Module) -> Tuple[List[Tuple[List[int], str]], List[Tuple[List[int], str]]]:
    """(global shape, dtype name) of every argument and result of the first function."""

def pipeline_names() -> List[str]:
    """The names of fuser's named pipelines."""

class CpuProgram:
    """A module lowered for the cpu backend and prepared once, for a `CpuRank`."""

    def __init__(self, module: Module, pipeline: str = "builtin.module(tp-default)") -> None: ...
    def arg_types(self) -> List[Tuple[List[int], str]]:
        """The local (per-rank) shape and element type name of every argument."""
    def result_types(self) -> List[Tuple[List[int], str]]:
        """The local (per-rank) shape and element type name of every result."""
    def ranks(self) -> int:
        """The number of ranks the program's meshes name."""

class CpuRank:
    """This process's rank of a cpu run (RANK/WORLD_SIZE/...; rank 0 of 1 without RANK); no GPU."""

    rank: int
    world: int
    def __init__(self, timeout_s: float = 60.0) -> None: ...
    def run(self, program: CpuProgram, inputs: Sequence[object], outputs: Sequence[object]) -> None:
        """Runs this rank: DLPack capsules of its input and output pieces (CPU tensors)."""
    def fail(self, message: str) -> None:
        """This process failed outside a run: the other ranks' runs fail at once, naming this rank."""
    def aborted(self) -> Optional[str]:
        """Why the run was aborted (by any rank), if it was."""
    def close(self) -> None:
        """Leaves the run; rank 0 waits (at most the timeout) until every other rank left."""

class CudaProgram:
    """A module lowered for the cuda backend and prepared once (cuda builds only)."""

    def __init__(self, module: Module, pipeline: str = "builtin.module(tp-default)") -> None: ...
    def arg_types(self) -> List[Tuple[List[int], str]]:
        """The local (per-rank) shape and element type name of every argument."""
    def result_types(self) -> List[Tuple[List[int], str]]:
        """The local (per-rank) shape and element type name of every result."""
    def ranks(self) -> int:
        """The number of ranks the program's meshes name."""

class CudaRank:
    """This process's rank of a cuda run (RANK/WORLD_SIZE/...; rank 0 of 1 without RANK)."""

    rank: int
    world: int
    device: int
    shared_gpu: Optional[str]
    def __init__(self, device: int, timeout_s: float = 60.0) -> None: ...
    def run(self, program: CudaProgram, inputs: Sequence[object], outputs: Sequence[object], stream: int) -> None:
        """Runs this rank: DLPack capsules of its input and output pieces; waits for `stream` first."""
    def run_returning(self, program: CudaProgram, inputs: Sequence[object], stream: int) -> List[object]:
        """Runs this rank on DLPack capsules of its input pieces; returns one capsule per result,
        owning the runtime's buffer (no copy)."""
