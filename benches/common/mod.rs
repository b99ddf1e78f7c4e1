//! A small paired-measurement harness for the benches that compare elicit with an alternative.
//!
//! Why not criterion's report: criterion measures one routine after the other, so a burst of
//! load on a shared machine lands on one side of a comparison only, and a ratio printed from
//! its saved estimates can mix this run with an earlier one. Here the routines of a comparison
//! alternate round by round (the order rotating each round), each round timing one batch of
//! calls of each; a run is a number of rounds; every figure is the median over a run's rounds,
//! and the printed figure the median of several runs with their spread (lowest to highest).
//! Everything printed comes from the samples of the process that measured it, and a filtered
//! run (`cargo bench --bench NAME -- FILTER`) prints only the comparisons it ran. Each group
//! runs in a process of its own (the bench starts itself again, filtered to the group), so
//! what one group leaves in the allocator and the caches does not move the next one's figures.
//!
//! Each routine times itself: it gets the number of calls to make, prepares what it needs
//! outside its clock (inputs to consume, say) and returns the time the calls took, so each
//! bench decides, and says in its header, what is inside the timing, the same for both sides.
//!
//! Each bench compiles this module on its own, so not every bench uses every item.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// A routine: given `n`, makes `n` calls and returns how long they took (its own setup and
/// teardown outside that time).
pub type Routine<'a> = Box<dyn FnMut(u64) -> Duration + 'a>;

/// How much to measure: `runs` runs of `rounds` rounds of `batch` calls per routine.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub runs: usize,
    pub rounds: usize,
    pub batch: u64,
}

/// Times `routine` once per call of the closure, for routines that need no setup per call.
pub fn timed<'a, O>(mut call: impl FnMut() -> O + 'a) -> Routine<'a> {
    Box::new(move |n| {
        let start = Instant::now();
        for _ in 0..n {
            drop(std::hint::black_box(call()));
        }
        start.elapsed()
    })
}

/// A routine that consumes one input per call: `make` builds the `n` inputs before the clock
/// starts; `call` consumes each, and its output is dropped inside the timing.
pub fn consuming<'a, I, O>(
    mut make: impl FnMut() -> I + 'a,
    mut call: impl FnMut(I) -> O + 'a,
) -> Routine<'a> {
    Box::new(move |n| {
        let inputs: Vec<I> = (0..n).map(|_| make()).collect();
        let start = Instant::now();
        for input in inputs {
            drop(std::hint::black_box(call(std::hint::black_box(input))));
        }
        start.elapsed()
    })
}

/// The comparisons a bench prints: each the ratio of one routine's time to another's.
pub struct Comparison {
    pub label: &'static str,
    /// Indices into the routines: `ours / theirs`.
    pub ours: usize,
    pub theirs: usize,
}

/// One routine's and one comparison's figures over the runs.
struct Figures {
    /// Per run: each routine's median ns per call.
    times: Vec<Vec<f64>>,
    /// Per run: each comparison's median ratio over the run's rounds.
    ratios: Vec<Vec<f64>>,
}

/// The filter of `cargo bench --bench NAME -- FILTER`: the first argument that is not a flag.
pub fn filter() -> Option<String> {
    let args = arguments();
    filter_at(&args).map(|at| args[at].clone())
}

/// This process's arguments, its own path left out.
fn arguments() -> Vec<String> {
    std::env::args().skip(1).collect()
}

/// The flags that take a number after them.
const FLAGS_WITH_NUMBERS: [&str; 2] = ["--only", "--repeat"];

/// Where the filter stands in `args`: the first word that is neither a flag nor a flag's
/// number.
fn filter_at(args: &[String]) -> Option<usize> {
    (0..args.len()).find(|&i| {
        !args[i].starts_with('-') && (i == 0 || !FLAGS_WITH_NUMBERS.contains(&args[i - 1].as_str()))
    })
}

/// Whether the group `name` runs under this invocation's filter: the filter names the group,
/// or the first words of its name (`unchecked` runs every `unchecked_*` group, `contact` runs
/// `contact` alone), so a filter never picks up a group that merely mentions it.
pub fn selected(name: &str) -> bool {
    filter().is_none_or(|f| {
        name.strip_prefix(f.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('_'))
    })
}

/// Whether `--quick` was given: fewer runs and rounds, for a first look.
pub fn quick() -> bool {
    std::env::args().any(|arg| arg == "--quick")
}

/// `--only N`: run routine `N` (counted from 0 in the order the group prints them) of the
/// selected groups alone, one run, and print nothing: for counting its instructions with
/// `valgrind --tool=callgrind`, which divides by the calls made (a run's rounds times its batch,
/// plus one batch of warm-up).
fn only() -> Option<usize> {
    number_after("--only")
}

/// `--repeat K` with `--only`: the run's rounds K times over, so that a sampling profiler
/// (`perf record`) sees the routine rather than the bench's set-up.
fn repeat() -> usize {
    number_after("--repeat").unwrap_or(1).max(1)
}

/// The number given after `flag`.
fn number_after(flag: &str) -> Option<usize> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|arg| arg == flag)?;
    args.get(at + 1)?.parse().ok()
}

/// Runs group `name` in a process of its own, this bench again with the group's name as its
/// filter, unless this process is that one; says whether it did. What an earlier group leaves
/// in the allocator and the caches moved a later group's figures by up to a tenth (`Contact`
/// borrowed read 1.41x after three groups, 1.52x alone), so every group starts from a fresh
/// process, and the whole bench prints what each group's filtered run prints.
fn ran_in_a_process_of_its_own(name: &str) -> bool {
    let mut args = arguments();
    match filter_at(&args) {
        Some(at) if args[at] == name => return false,
        Some(at) => {
            args.remove(at);
        }
        None => {}
    }
    args.push(name.to_owned());
    let bench = std::env::current_exe().expect("the bench's own path");
    let status = std::process::Command::new(&bench)
        .args(&args)
        .status()
        .unwrap_or_else(|e| panic!("running {} for group {name}: {e}", bench.display()));
    assert!(status.success(), "group {name} failed: {status}");
    true
}

/// Measures the routines of group `name` alternately and prints each routine's time and each
/// comparison's ratio: the median of the runs and their spread. Skipped (nothing printed) when
/// the filter excludes `name`.
pub fn compare(
    name: &str,
    plan: Plan,
    names: &[&str],
    mut routines: Vec<Routine<'_>>,
    comparisons: &[Comparison],
) {
    if !selected(name) || ran_in_a_process_of_its_own(name) {
        return;
    }
    assert_eq!(names.len(), routines.len());
    let plan = if quick() {
        Plan {
            runs: plan.runs.min(3),
            rounds: plan.rounds.div_ceil(4),
            ..plan
        }
    } else {
        plan
    };
    if let Some(routine) = only() {
        let routine = &mut routines[routine];
        for _ in 0..=plan.rounds * repeat() {
            routine(plan.batch);
        }
        return;
    }
    // Warm up: every routine once at full batch, untimed.
    for routine in routines.iter_mut() {
        routine(plan.batch);
    }
    let mut figures = Figures {
        times: Vec::new(),
        ratios: Vec::new(),
    };
    for _ in 0..plan.runs {
        let mut samples = vec![Vec::with_capacity(plan.rounds); routines.len()];
        for round in 0..plan.rounds {
            let count = routines.len();
            for k in 0..count {
                let i = (round + k) % count;
                let elapsed = routines[i](plan.batch);
                samples[i].push(elapsed.as_nanos() as f64 / plan.batch as f64);
            }
        }
        let ratios = comparisons
            .iter()
            .map(|c| {
                let mut per_round: Vec<f64> = samples[c.ours]
                    .iter()
                    .zip(&samples[c.theirs])
                    .map(|(ours, theirs)| ours / theirs)
                    .collect();
                median(&mut per_round)
            })
            .collect();
        figures.ratios.push(ratios);
        figures
            .times
            .push(samples.iter_mut().map(|s| median(s)).collect());
    }
    report(name, plan, names, comparisons, &figures);
}

fn report(name: &str, plan: Plan, names: &[&str], comparisons: &[Comparison], f: &Figures) {
    println!(
        "\n{name}: {} runs of {} alternating rounds of {} calls each; medians over the runs (lowest - highest run)",
        plan.runs, plan.rounds, plan.batch
    );
    for (i, routine) in names.iter().enumerate() {
        let runs: Vec<f64> = f.times.iter().map(|run| run[i]).collect();
        let (mid, low, high) = spread(runs);
        println!("  {routine:<58} {} ({} - {})", ns(mid), ns(low), ns(high));
    }
    for (j, c) in comparisons.iter().enumerate() {
        let runs: Vec<f64> = f.ratios.iter().map(|run| run[j]).collect();
        let each: Vec<String> = runs.iter().map(|r| format!("{r:.2}")).collect();
        let (mid, low, high) = spread(runs);
        println!(
            "  {:<58} {mid:.2}x ({low:.2}x - {high:.2}x; runs: {})",
            c.label,
            each.join(", ")
        );
    }
}

/// The median, lowest and highest of `values`.
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    let mid = median(&mut values);
    (mid, values[0], values[values.len() - 1])
}

/// The median of `values` (sorted in place); the mean of the middle two for an even count.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn ns(value: f64) -> String {
    if value >= 1e6 {
        format!("{:.2} ms", value / 1e6)
    } else if value >= 1e4 {
        format!("{:.1} us", value / 1e3)
    } else {
        format!("{value:.0} ns")
    }
}
