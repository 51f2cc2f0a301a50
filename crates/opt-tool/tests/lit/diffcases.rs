//! Differential cases: the in-process FileCheck must agree with LLVM FileCheck 19.
//!
//! Cases 1-47 are the corpus of `reference/filecheck-diff/cases.py` (shared project
//! research); cases 101 and up were added while building the harness, to pin down DAG
//! ordering with variables, whitespace canonicalisation, `{{^}}` at the search start,
//! `CHECK-EMPTY` at the end of input and LLVM's static check-file errors.
//!
//! Each case records LLVM's exit status (0 pass, 1 a check failed, 2 invalid check file
//! or options), obtained by running `FileCheck-19 FLAGS check --input-file input`. A
//! trial named `filecheck-diff/NNN-name` passes when our exit status is the same. With
//! `FUSER_FILECHECK` set, the trial also runs that binary on the case and requires it to
//! give the recorded status too, so the table itself is re-validated against LLVM.
//!
//! Invariant: the table is data only; the runner never panics (errors become `Failed`).

use std::path::Path;

use super::filecheck;

pub struct Case {
    pub num: u32,
    pub name: &'static str,
    pub flags: &'static [&'static str],
    pub check: &'static str,
    pub input: &'static str,
    /// Exit status of LLVM FileCheck 19.
    pub llvm: i32,
}

const fn case(
    num: u32,
    name: &'static str,
    flags: &'static [&'static str],
    check: &'static str,
    input: &'static str,
    llvm: i32,
) -> Case {
    Case { num, name, flags, check, input, llvm }
}

#[rustfmt::skip]
pub const CASES: &[Case] = &[
    case(1, "basic_order_pass", &[], "CHECK: a\nCHECK: b\n", "a\nb\n", 0),
    case(2, "basic_order_fail", &[], "CHECK: b\nCHECK: a\n", "a\nb\n", 1),
    case(3, "same_line_twice", &[], "CHECK: foo\nCHECK: foo\n", "foo foo\n", 0),
    case(4, "next_same_line_fail", &[], "CHECK: foo\nCHECK-NEXT: bar\n", "foo bar\n", 1),
    case(5, "next_skip_fail", &[], "CHECK: foo\nCHECK-NEXT: bar\n", "foo\nx\nbar\n", 1),
    case(6, "same_pass", &[], "CHECK: foo\nCHECK-SAME: bar\n", "foo bar\n", 0),
    case(7, "same_fail", &[], "CHECK: foo\nCHECK-SAME: bar\n", "foo\nbar\n", 1),
    case(8, "empty_pass", &[], "CHECK: foo\nCHECK-EMPTY:\nCHECK-NEXT: bar\n", "foo\n\nbar\n", 0),
    case(9, "empty_fail", &[], "CHECK: foo\nCHECK-EMPTY:\n", "foo\nbar\n\n", 1),
    case(10, "not_between_fail", &[], "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", "a\nb\nc\n", 1),
    case(11, "not_between_pass", &[], "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", "a\nc\nb\n", 0),
    case(12, "not_leading_fail", &[], "CHECK-NOT: b\nCHECK: a\n", "b\na\n", 1),
    case(13, "not_trailing_fail", &[], "CHECK: a\nCHECK-NOT: b\n", "a\nb\n", 1),
    case(14, "dag_any_order", &[], "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", "a\nb\nc\n", 0),
    case(15, "dag_overlap_fail", &[], "CHECK-DAG: foo\nCHECK-DAG: foo\n", "foo\n", 1),
    case(16, "dag_overlap_two_pass", &[], "CHECK-DAG: foo\nCHECK-DAG: foo\n", "foo\nfoo\n", 0),
    case(17, "dag_then_check_before_fail", &[], "CHECK-DAG: b\nCHECK: a\n", "a\nb\n", 1),
    case(18, "dag_not_dag_fail", &[], "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "a\nx\nb\n", 1),
    case(19, "dag_not_dag_pass", &[], "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", "a\nb\nx\n", 0),
    case(20, "label_scope_fail", &[], "CHECK-LABEL: f1\nCHECK: x\nCHECK-LABEL: f2\n", "f1\nf2\nx\n", 1),
    case(21, "label_pass", &[], "CHECK-LABEL: f1\nCHECK: x\nCHECK-LABEL: f2\nCHECK: y\n", "f1\nx\nf2\ny\n", 0),
    case(22, "count_pass", &[], "CHECK-COUNT-3: x\n", "x\ny\nx\nx\n", 0),
    case(23, "count_fail", &[], "CHECK-COUNT-3: x\n", "x\nx\n", 1),
    case(24, "var_pass", &[], "CHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]\n", "def abc\nuse abc\n", 0),
    case(25, "var_fail", &[], "CHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]\n", "def abc\nuse abd\n", 1),
    case(26, "var_same_line", &[], "CHECK: [[X:a+]] [[X]]\n", "aa aa\n", 0),
    case(27, "var_redefine", &[], "CHECK: [[X:[0-9]+]]\nCHECK: [[X:[a-z]+]] [[X]]\n", "12\nab ab\n", 0),
    case(28, "var_scope_fail", &["--enable-var-scope"], "CHECK-LABEL: f1\nCHECK: [[V:[a-z]+]]\nCHECK-LABEL: f2\nCHECK: [[V]]\n", "f1\nabc\nf2\nabc\n", 1),
    case(29, "var_global_pass", &["--enable-var-scope"], "CHECK-LABEL: f1\nCHECK: [[$V:[a-z]+]]\nCHECK-LABEL: f2\nCHECK: [[$V]]\n", "f1\nabc\nf2\nabc\n", 0),
    case(30, "regex_anchor", &[], "CHECK: {{^}}foo{{$}}\n", "xfoo\nfoo\n", 0),
    case(31, "regex_posix_class", &[], "CHECK: a{{[[:digit:]]+}}b\n", "a123b\n", 0),
    case(32, "regex_literal_brackets", &[], "CHECK: {{\\[\\[}}x{{\\]\\]}}\n", "[[x]]\n", 0),
    case(33, "whitespace_canon", &[], "CHECK: a  b\n", "a\tb\n", 0),
    case(34, "strict_ws_fail", &["--strict-whitespace"], "CHECK: a b\n", "a  b\n", 1),
    case(35, "full_lines_fail", &["--match-full-lines"], "CHECK: foo\n", "foo bar\n", 1),
    case(36, "numeric_pass", &[], "CHECK: n=[[#N:]]\nCHECK: m=[[#N+1]]\n", "n=41\nm=42\n", 0),
    case(37, "numeric_hex", &[], "CHECK: a=[[#%x,A:]]\nCHECK: b=[[#%x,A+1]]\n", "a=ff\nb=100\n", 0),
    case(38, "numeric_fail", &[], "CHECK: n=[[#N:]]\nCHECK: m=[[#N+1]]\n", "n=41\nm=43\n", 1),
    case(39, "implicit_not_fail", &["--implicit-check-not=warning"], "CHECK: a\nCHECK: b\n", "a\nwarning: x\nb\n", 1),
    case(40, "prefixes", &["--check-prefixes=A,B"], "A: x\nB: y\nCHECK: zzz\n", "x\ny\n", 0),
    case(41, "prefix_unused_fail", &["--check-prefixes=A,Q"], "A: x\n", "x\n", 2),
    case(42, "literal_mod", &[], "CHECK{LITERAL}: [[x]]\n", "[[x]]\n", 0),
    case(43, "define_var", &["-DVAL=abc"], "CHECK: x=[[VAL]]\n", "x=abc\n", 0),
    case(44, "empty_input_fail", &[], "CHECK-NOT: x\n", "", 2),
    case(45, "no_checks_fail", &[], "nothing here\n", "x\n", 2),
    case(46, "next_after_dag", &[], "CHECK-DAG: a\nCHECK-DAG: b\nCHECK-NEXT: c\n", "b\na\nc\n", 2),
    case(47, "label_var_use_error", &[], "CHECK-LABEL: [[X:f]]\n", "f\n", 2),
    case(101, "dag_var_chain", &[], "CHECK-DAG: [[X:f]]oo\nCHECK-DAG: [[X]]oo\n", "foo\nfoo\n", 0),
    case(102, "dag_var_mlir", &[], "CHECK-DAG: %[[A:.*]] = arith.constant 1\nCHECK-DAG: %[[B:.*]] = arith.addi %[[A]], %[[A]]\n", "%c = arith.constant 1\n%d = arith.addi %c, %c\n", 0),
    case(103, "dag_def_in_later_line", &[], "CHECK-DAG: %[[B:.*]] = arith.addi %[[A:.*]], %[[A]]\nCHECK-DAG: %[[A]] = arith.constant 1\n", "%c = arith.constant 1\n%d = arith.addi %c, %c\n", 0),
    case(104, "dag_order_dependent", &[], "CHECK-DAG: b\nCHECK-DAG: abc\n", "abc b\n", 1),
    case(105, "dag_enclosing_overlap", &[], "CHECK-DAG: b\nCHECK-DAG: {{a.c}}\n", "abc\n", 1),
    case(106, "dag_groups_split_by_not", &[], "CHECK-DAG: a\nCHECK-NOT: z\nCHECK-DAG: a\n", "a\n", 1),
    case(107, "dag_three_same", &[], "CHECK-DAG: x\nCHECK-DAG: x\nCHECK-DAG: x\n", "x x\nx\n", 0),
    case(108, "ws_run_in_regex", &[], "CHECK: {{a  b}}\n", "a\t  b\n", 0),
    case(109, "ws_input_runs", &[], "CHECK: x = 1\n", "x    =   1\n", 0),
    case(110, "ws_tab_in_pattern", &[], "CHECK: a\tb\n", "a b\n", 0),
    case(111, "caret_at_search_start", &[], "CHECK: foo\nCHECK: {{^}}bar\n", "foobar\n", 0),
    case(112, "same_caret_fail", &[], "CHECK: a\nCHECK-SAME: {{^}}b\n", "a b\n", 1),
    case(113, "empty_at_eof", &[], "CHECK: foo\nCHECK-EMPTY:\n", "foo\n", 0),
    case(114, "empty_no_newline", &[], "CHECK: foo\nCHECK-EMPTY:\n", "foo", 1),
    case(115, "next_after_dag_with_check", &[], "CHECK: x\nCHECK-DAG: a\nCHECK-DAG: b\nCHECK-NEXT: c\n", "x\nb\na\nc\n", 0),
    case(116, "misspelled", &[], "CHECK_NEXT: x\nCHECK: x\n", "x\n", 2),
    case(117, "bad_not_combo", &[], "CHECK-DAG-NOT: x\nCHECK: x\n", "x\n", 2),
    case(118, "count_zero", &[], "CHECK-COUNT-0: x\n", "x\n", 2),
    case(119, "empty_pattern", &[], "CHECK: x\nCHECK:\n", "x\n", 2),
    case(120, "prefix_word_boundary", &[], "XCHECK: x\nCHECK: y\n", "y\n", 0),
    case(121, "implicit_regex", &["--implicit-check-not={{w.r}}"], "CHECK: a\n", "a\nwar\n", 1),
    case(122, "var_scope_cli", &["--enable-var-scope", "-DX=a"], "CHECK: [[X]]\nCHECK-LABEL: l\nCHECK: [[X]]\n", "a\nl\na\n", 1),
    case(123, "line_pseudo", &[], "CHECK: x\nCHECK: [[@LINE]]\nCHECK: [[#@LINE+1]]\n", "x\n2\n4\n", 0),
    case(124, "label_dag_region", &[], "CHECK-LABEL: f1\nCHECK-DAG: y\nCHECK-LABEL: f2\n", "f1\nf2\ny\n", 1),
    case(125, "not_after_dag_group", &[], "CHECK-DAG: a\nCHECK-DAG: b\nCHECK-NOT: c\nCHECK: d\n", "b\na\nc\nd\n", 1),
    case(126, "full_lines_ws", &["--match-full-lines"], "CHECK: a b\n", "  a   b  \n", 0),
    case(127, "strict_full_leading", &["--strict-whitespace", "--match-full-lines"], "CHECK: a \n", "a \n", 1),
    case(128, "ignore_case", &["--ignore-case"], "CHECK: HELLO\n", "hello\n", 0),
    case(129, "implicit_only", &["--implicit-check-not=x"], "nothing\n", "y\n", 0),
    case(130, "dup_prefix", &["--check-prefixes=A,A"], "A: x\n", "x\n", 2),
    case(131, "count_same_line", &[], "CHECK-COUNT-2: x\nCHECK-NEXT: y\n", "x x\ny\n", 0),
    case(132, "label_next_fail", &[], "CHECK-LABEL: f\nCHECK-NEXT: a\n", "f\nb\na\n", 1),
    case(133, "mlir_ssa_chain", &[], "CHECK-LABEL: func @f\nCHECK: %[[C:.*]] = arith.constant 1 : index\nCHECK-NEXT: %[[S:.*]] = arith.addi %[[C]], %[[C]] : index\nCHECK-NEXT: return %[[S]]\n", "func @f() {\n  %c1 = arith.constant 1 : index\n  %0 = arith.addi %c1, %c1 : index\n  return %0\n}\n", 0),
    case(134, "numeric_hex_capture", &[], "CHECK: [[#%X,V:]]\nCHECK: [[#V+1]]\n", "FF\n100\n", 0),
    case(135, "literal_brackets_dag", &[], "CHECK-DAG{LITERAL}: [[a]]\nCHECK-DAG: b\n", "b\n[[a]]\n", 0),
    case(136, "prefix_inside_pattern", &[], "CHECK: a CHECK: b\n", "a CHECK: b\n", 0),
    case(137, "comment_inside_pattern", &[], "CHECK: x COM: y\n", "x COM: y\n", 0),
    case(138, "run_as_check_prefix", &["--check-prefix=RUN", "--comment-prefixes=X"], "RUN: a\n", "a\n", 0),
    case(139, "not_uses_variable", &[], "CHECK: [[V:a+]]\nCHECK-NOT: [[V]]\nCHECK: end\n", "aa\nb\naa\nend\n", 1),
    case(140, "trailing_dag_then_not", &[], "CHECK: a\nCHECK-DAG: c\nCHECK-DAG: b\nCHECK-NOT: d\n", "a\nb\nc\nd\n", 1),
    case(141, "label_regex_no_var", &[], "CHECK-LABEL: {{^}}f{{[0-9]}}\nCHECK: x\n", "f1\nx\n", 0),
    case(142, "crlf_input", &[], "CHECK: a\nCHECK-NEXT: b\n", "a\r\nb\r\n", 0),
    case(143, "numeric_next", &[], "CHECK: [[#N:]]\nCHECK-NEXT: [[#N+1]]\nCHECK-NEXT: [[#mul(N,2)]]\n", "3\n4\n6\n", 0),
    case(144, "label_then_same", &[], "CHECK-LABEL: f\nCHECK-SAME: (x)\n", "f(x)\n", 0),
    case(145, "implicit_not_between_dags", &["--implicit-check-not=bad"], "CHECK-DAG: a\nCHECK-DAG: b\n", "b\nbad\na\n", 0),
    case(146, "implicit_not_after", &["--implicit-check-not=bad"], "CHECK-DAG: a\nCHECK-DAG: b\n", "b\na\nbad\n", 0),
    case(147, "prefixes_interleaved", &["--check-prefixes=A,B"], "A: x\nB-NEXT: y\n", "x\ny\n", 0),
    case(148, "full_lines_not_substring", &["--match-full-lines"], "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", "a\nxbx\nc\n", 1),
    case(149, "dag_across_labels_var", &[], "CHECK-LABEL: f1\nCHECK-DAG: [[X:[0-9]+]] one\nCHECK-LABEL: f2\nCHECK: [[X]] two\n", "f1\n7 one\nf2\n7 two\n", 0),
    case(150, "count_then_not", &[], "CHECK-COUNT-2: x\nCHECK-NOT: x\n", "x\nx\nx\n", 1),
    case(151, "same_after_dag_fail", &[], "CHECK: a\nCHECK-DAG: c\nCHECK-SAME: b\n", "a b\nc\n", 1),
    case(152, "empty_after_label", &[], "CHECK-LABEL: f\nCHECK-EMPTY:\nCHECK-NEXT: g\n", "f\n\ng\n", 0),
    case(153, "next_after_count", &[], "CHECK-COUNT-2: x\nCHECK-NEXT: y\n", "x\nx\ny\n", 0),
    case(154, "literal_with_regex_chars", &[], "CHECK{LITERAL}: {{a}} [[b]]\n", "{{a}} [[b]]\n", 0),
    case(155, "global_var_across_scope_fail", &["--enable-var-scope"], "CHECK-LABEL: f1\nCHECK: [[V:[a-z]+]] [[$G:[0-9]+]]\nCHECK-LABEL: f2\nCHECK: [[$G]] [[V]]\n", "f1\nabc 12\nf2\n12 abc\n", 1),
    case(156, "dag_with_numeric", &[], "CHECK-DAG: b=[[#B:]]\nCHECK-DAG: a=[[#B-1]]\n", "a=4\nb=5\n", 0),
    case(157, "ignore_case_regex", &["--ignore-case"], "CHECK: {{H[a-z]+O}}\n", "hello\n", 0),
    case(158, "strict_tab_vs_space", &["--strict-whitespace"], "CHECK: a\tb\n", "a b\n", 1),
    case(159, "unicode_input", &[], "CHECK: héllo [[V:w[^ ]+d]]\nCHECK: [[V]]\n", "héllo wörld\nwörld\n", 0),
    case(160, "negated_class_stays_on_line", &[], "CHECK: a [[V:[^ ]+]]\nCHECK: [[V]]\n", "a b\nc\nb\n", 0),
    case(161, "negated_class_regex_block", &[], "CHECK: x{{[^y]*}}z\nCHECK-NEXT: end\n", "x\nz\nxaz\nend\n", 0),
    case(162, "negated_class_bracket_first", &[], "CHECK: ({{[^])]*}})\nCHECK-NEXT: end\n", "(a\nb)\n(ab)\nend\n", 0),
    case(163, "posix_class_in_negation", &[], "CHECK: q{{[^[:digit:]]+}}w\nCHECK-NEXT: end\n", "q\nw\nqaw\nend\n", 0),
    case(164, "negated_class_in_var_nested", &[], "CHECK: %[[V:[a-z]+[^,[:space:]]*]],\nCHECK-NEXT: end\n", "%ab\ncd,\n%ab_1,\nend\n", 0),
    case(165, "regex_alternation_grouped", &[], "CHECK: x{{a|b}}y\nCHECK-NEXT: end\n", "b\nxay\nend\n", 0),
    case(166, "regex_alternation_not_bare", &[], "CHECK: x{{a|b}}y\n", "b\n", 1),
    case(167, "not_undefined_variable", &[], "CHECK-NOT: zzz [[UNDEF]]\n", "a\n", 1),
    case(168, "numeric_not_undefined", &[], "CHECK-NOT: zzz [[#N+1]]\n", "a\n", 1),
];

impl Case {
    pub fn trial_name(&self) -> String {
        format!("filecheck-diff/{:03}-{}", self.num, self.name)
    }

    /// Runs the case in-process (and through `external` if given). `Err` explains a
    /// disagreement with the recorded LLVM status.
    pub fn run(&self, external: Option<&Path>, scratch: &Path) -> Result<(), String> {
        let args: Vec<String> = self.flags.iter().map(|s| s.to_string()).chain(["check.txt".to_string()]).collect();
        let ours = match filecheck::parse_args(&args) {
            Ok(opts) => filecheck::run(&opts, "check.txt", self.check, "<stdin>", self.input),
            Err(e) => filecheck::Outcome { code: 2, stderr: e },
        };
        let mut problems = String::new();
        if ours.code != self.llvm {
            problems.push_str(&format!(
                "in-process FileCheck exited {} but LLVM FileCheck 19 exits {}\n--- our stderr ---\n{}",
                ours.code, self.llvm, ours.stderr
            ));
        }
        if let Some(bin) = external {
            let dir = scratch.join(format!("case-{:03}", self.num));
            std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let check = dir.join("check.txt");
            let input = dir.join("input.txt");
            std::fs::write(&check, self.check).map_err(|e| e.to_string())?;
            std::fs::write(&input, self.input).map_err(|e| e.to_string())?;
            let out = std::process::Command::new(bin)
                .args(self.flags)
                .arg(&check)
                .arg("--input-file")
                .arg(&input)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
            let code = out.status.code().unwrap_or(-1);
            if code != self.llvm {
                problems.push_str(&format!(
                    "{} exited {code} but the table says {}\n--- its stderr ---\n{}",
                    bin.display(),
                    self.llvm,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "case {} ({}), flags {:?}\n--- check ---\n{}--- input ---\n{}\n{problems}",
                self.num, self.name, self.flags, self.check, self.input
            ))
        }
    }
}
