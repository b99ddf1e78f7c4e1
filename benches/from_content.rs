//! `from_content` on a 10-field form against the alternatives a server author has:
//! unvalidated serde (`serde_json::from_value` into an equivalent `#[derive(Deserialize)]`
//! struct), and jsonschema validation of the emitted schema followed by that same `from_value`.
//!
//! A second group prices typed fields (a `chrono::NaiveDate` and a `url::Url`) against the same
//! fields as strings of their formats plus the crates' own parse of the texts.
//!
//! Run with `cargo bench --bench from_content`: it measures five times over and prints each
//! run's ratios and their medians, the figures the README quotes, read back from criterion's
//! estimates of each run.

#[path = "common/mod.rs"]
mod common;

use std::time::Duration;

use criterion::{BatchSize, Criterion};
use elicit_mcp::Elicit;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Elicit, Deserialize)]
#[serde(rename_all = "camelCase")]
#[elicit(rename_all = "camelCase")]
#[allow(dead_code)]
struct Signup {
    #[elicit(min_length = 3, max_length = 50)]
    full_name: String,
    #[elicit(format = "email")]
    email: String,
    #[elicit(minimum = 18)]
    age: u8,
    country: Country,
    #[elicit(min_items = 1, max_items = 3)]
    interests: Vec<Interest>,
    newsletter: bool,
    #[elicit(minimum = 0.0, maximum = 100.0)]
    score: f64,
    #[elicit(format = "uri")]
    website: Option<String>,
    #[elicit(format = "date")]
    birthday: String,
    #[elicit(max_length = 500)]
    bio: Option<String>,
}

#[derive(Elicit, Deserialize)]
#[allow(dead_code)]
enum Country {
    #[serde(rename = "fr")]
    #[elicit(rename = "fr", title = "France")]
    France,
    #[serde(rename = "jp")]
    #[elicit(rename = "jp", title = "Japan")]
    Japan,
    #[serde(rename = "br")]
    #[elicit(rename = "br", title = "Brazil")]
    Brazil,
}

#[derive(Elicit, Deserialize)]
#[serde(rename_all = "lowercase")]
#[elicit(rename_all = "lowercase")]
#[allow(dead_code)]
enum Interest {
    Rust,
    Music,
    Hiking,
    Chess,
}

fn content() -> Value {
    json!({
        "fullName": "Monalisa Octocat",
        "email": "octocat@github.com",
        "age": 30,
        "country": "jp",
        "interests": ["rust", "chess"],
        "newsletter": true,
        "score": 87.5,
        "website": "https://github.com/octocat",
        "birthday": "1990-04-01",
        "bio": "Ships code, collects cats."
    })
}

/// The same two fields as strings of their formats ...
#[derive(Elicit)]
#[allow(dead_code)]
struct AsStrings {
    #[elicit(format = "date")]
    day: String,
    #[elicit(format = "uri")]
    site: String,
}

/// ... and as the typed values a server wants.
#[derive(Elicit)]
#[allow(dead_code)]
struct AsTyped {
    day: chrono::NaiveDate,
    site: url::Url,
}

fn typed_content() -> Value {
    json!({"day": "1990-04-01", "site": "https://github.com/octocat/hello-world?tab=readme#top"})
}

fn typed_benches(c: &mut Criterion) {
    let value = typed_content();
    let map = value.as_object().expect("object").clone();
    assert!(AsStrings::from_content(&map).is_ok() && AsTyped::from_content(&map).is_ok());
    let day = value["day"].as_str().expect("text").to_owned();
    let site = value["site"].as_str().expect("text").to_owned();

    let mut group = c.benchmark_group("typed_fields");
    group.bench_function("strings_from_content", |b| {
        b.iter_batched_ref(
            || map.clone(),
            |m| AsStrings::from_content(m),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("typed_from_content", |b| {
        b.iter_batched_ref(
            || map.clone(),
            |m| AsTyped::from_content(m),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("crates_own_parse", |b| {
        b.iter(|| {
            (
                std::hint::black_box(&day).parse::<chrono::NaiveDate>(),
                url::Url::parse(std::hint::black_box(&site)),
            )
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let value = content();
    let map = value.as_object().expect("object").clone();
    assert!(
        Signup::from_content(&map).is_ok(),
        "the bench content must be valid"
    );

    let schema: Value = serde_json::from_str(Signup::requested_schema_json()).expect("schema");
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("validator");
    assert!(validator.is_valid(&value));

    let mut group = c.benchmark_group("from_content");
    // Every routine gets its input from setup and has its output dropped outside the timing, so
    // the three are measured alike; only `from_value` consumes (and partly frees) its input,
    // which is inherent to it.
    group.bench_function("elicit_from_content", |b| {
        b.iter_batched_ref(
            || map.clone(),
            |m| Signup::from_content(m),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("serde_from_value_unvalidated", |b| {
        b.iter_batched(
            || value.clone(),
            serde_json::from_value::<Signup>,
            BatchSize::SmallInput,
        )
    });
    group.bench_function("jsonschema_then_from_value", |b| {
        b.iter_batched(
            || value.clone(),
            |v| {
                if validator.is_valid(&v) {
                    serde_json::from_value::<Signup>(v).ok()
                } else {
                    None
                }
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

/// The ratios of one run: from_content / from_value, (jsonschema + from_value) / from_content,
/// typed / (strings + the crates' parse).
fn ratios() -> Option<[f64; 3]> {
    let time = |group, function| common::typical_ns(group, function);
    let ours = time("from_content", "elicit_from_content")?;
    let serde = time("from_content", "serde_from_value_unvalidated")?;
    let jsonschema = time("from_content", "jsonschema_then_from_value")?;
    let strings = time("typed_fields", "strings_from_content")?;
    let typed = time("typed_fields", "typed_from_content")?;
    let parse = time("typed_fields", "crates_own_parse")?;
    Some([ours / serde, jsonschema / ours, typed / (strings + parse)])
}

const RUNS: usize = 5;

fn main() {
    let mut runs = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let mut c = Criterion::default()
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(3))
            .configure_from_args();
        benches(&mut c);
        typed_benches(&mut c);
        // Only a full run has all estimates (a filtered one prints no ratios).
        runs.extend(ratios());
    }
    Criterion::default().configure_from_args().final_summary();
    if runs.len() < RUNS {
        return;
    }
    let labels = [
        "elicit from_content / unvalidated serde from_value",
        "jsonschema + from_value / elicit from_content",
        "typed date + URL / (as strings + chrono and url parse)",
    ];
    println!(
        "\nratios of {RUNS} runs (typical times, as criterion reports them), and their median:"
    );
    for (i, label) in labels.iter().enumerate() {
        let mut values: Vec<f64> = runs.iter().map(|run| run[i]).collect();
        let each: Vec<String> = values.iter().map(|v| format!("{v:.2}x")).collect();
        values.sort_by(f64::total_cmp);
        println!(
            "  {label:<56} median {:.2}x  (runs: {})",
            values[RUNS / 2],
            each.join(", ")
        );
    }
}
