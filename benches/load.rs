//! The bounded load run of issue 20 (see `tests/support/load/mod.rs`): `conformance_server` built
//! `--release` as its own process on loopback, concurrent rmcp clients on both revisions
//! running two-form flows, and 2025-11-25 clients vanishing with an ask pending. It stops by
//! itself and prints what `benches/README.md` quotes.
//!
//! ```sh
//! cargo bench --bench load            # the short form, as `cargo test` runs it
//! cargo bench --bench load -- --full  # 32 clients, 1,600 flows per revision, 200 vanishing
//! ```

#[cfg(target_os = "linux")]
use elicit_test_support::load;

#[cfg(target_os = "linux")]
#[tokio::main]
async fn main() {
    // `cargo bench` passes `--bench`; only `--full` matters here.
    let plan = if std::env::args().any(|arg| arg == "--full") {
        load::Plan::FULL
    } else {
        load::Plan::SHORT
    };
    let report = load::run(&plan).await;
    println!("{report}");
    let incomplete = report
        .revisions
        .iter()
        .any(|run| run.completed != run.expected);
    if incomplete || report.vanishing.iter().any(|wave| !wave.served_after) {
        std::process::exit(1);
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("the load run reads the server's memory from /proc: Linux only");
}
