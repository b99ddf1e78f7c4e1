use elicit_mcp::Elicit;

// The mapping is a trait bound, so an alias does not hide a nested type.
type Coordinates = (f64, f64);

#[derive(Elicit)]
struct Place {
    name: String,
    location: Coordinates,
}

fn main() {}
