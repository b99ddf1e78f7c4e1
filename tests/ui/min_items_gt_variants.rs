use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Topping {
    Cheese,
    Olives,
}

#[derive(Elicit)]
struct Pizza {
    #[elicit(min_items = 3)]
    toppings: Vec<Topping>,
}

fn main() {}
