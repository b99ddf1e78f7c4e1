use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "lowercase")]
enum Unit {
    Metric,
    #[elicit(rename = "metric")]
    Imperial,
}

fn main() {}
