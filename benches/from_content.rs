//! `from_content` on a 10-field form against the alternatives a server author has:
//! unvalidated serde (`serde_json::from_value` into an equivalent `#[derive(Deserialize)]`
//! struct), and jsonschema validation of the emitted schema followed by that same `from_value`.
//!
//! Run with `cargo bench --bench from_content`; after criterion's own report it prints the
//! ratios the README quotes, read back from criterion's estimates of this run.

#[path = "common/mod.rs"]
mod common;

use criterion::{BatchSize, Criterion, criterion_group};
use elicit::Elicit;
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

criterion_group!(group, benches);

fn main() {
    group();
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
    let ours = common::typical_ns("from_content", "elicit_from_content");
    let serde = common::typical_ns("from_content", "serde_from_value_unvalidated");
    let jsonschema = common::typical_ns("from_content", "jsonschema_then_from_value");
    if let (Some(ours), Some(serde), Some(jsonschema)) = (ours, serde, jsonschema) {
        println!("\nratios of this run (typical times, as criterion reports them):");
        println!(
            "  elicit from_content / unvalidated serde from_value = {:.2}x (target <= 1.5x)",
            ours / serde
        );
        println!(
            "  jsonschema + from_value / elicit from_content     = {:.2}x (target >= 3x)",
            jsonschema / ours
        );
    }
}
