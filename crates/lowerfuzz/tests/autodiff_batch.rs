//! A fixed batch of autodiff cases of the lowering fuzzer (issue 25): the cases of seeds
//! FIRST_SEED..FIRST_SEED + CASES with `Autodiff::On`, each checking the joint `@fuzz_vjp`
//! that `fusion-autodiff{func=fuzz}` makes of its random program (lowered by the case's
//! pipeline, `comm-verify`, run on its cpu ranks with the race checker against the
//! reference). No case may make a finding, and some must pass end to end (a batch that
//! `fusion-autodiff` or the lowering only refused would check no backward at all).

use fuser_lowerfuzz::campaign::{CampaignConfig, run};
use fuser_lowerfuzz::generate::{Autodiff, GenConfig};

const FIRST_SEED: u64 = 1000;
const CASES: u64 = 120;

#[test]
fn autodiff_batch_finds_nothing_and_passes_some() {
    let cfg = CampaignConfig {
        first_seed: FIRST_SEED,
        count: Some(CASES),
        generator: GenConfig { max_numel: 2048, autodiff: Autodiff::On, ..Default::default() },
        ..Default::default()
    };
    let stats = run(&cfg, &mut |_| {});
    eprintln!("{}", stats.summary());
    assert_eq!(stats.cases, CASES);
    assert_eq!(stats.autodiff[0], CASES, "every case is an autodiff case");
    assert!(stats.findings.is_empty(), "findings in the autodiff batch:\n{}", stats.summary());
    let [_, passed, refused, rejected] = stats.autodiff;
    assert_eq!(passed + refused + rejected + stats.noise, CASES);
    assert!(passed >= CASES / 5, "only {passed} of {CASES} joints lowered, ran and matched:\n{}", stats.summary());
    // The per-pipeline table and the coverage label the cases.
    assert!(stats.per_pipeline.keys().all(|k| k.ends_with(" (autodiff)")), "{:?}", stats.per_pipeline.keys());
    assert!(
        stats.coverage.count("autodiff passed with op", "add") + stats.coverage.count("autodiff passed with op", "mul")
            > 0
    );
}
