use elicit_mcp::Elicit;

#[derive(Elicit)]
#[elicit(minimum = 0, maximum = 100)]
struct Percent(u8);

#[derive(Elicit)]
#[elicit(min_length = 5, max_length = 5)]
struct Postcode(String);

// A default keeps the bounds and lengths the field's type declares.
#[derive(Elicit)]
struct Order {
    #[elicit(default = 150)]
    tip: Percent,
    #[elicit(default = "123")]
    postcode: Option<Postcode>,
    #[elicit(default = 50)]
    fine: Percent,
}

fn main() {}
