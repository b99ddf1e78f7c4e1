use elicit_mcp::Elicit;

// A newtype's constraints must fit its field's type, as a field's attributes must.
#[derive(Elicit)]
#[elicit(maximum = 300)]
struct Percent(u8);

#[derive(Elicit)]
#[elicit(pattern = "^[a-z]+$")]
struct Count(u32);

#[derive(Elicit)]
#[elicit(min_length = 5, max_length = 2)]
struct Code(String);

fn main() {}
