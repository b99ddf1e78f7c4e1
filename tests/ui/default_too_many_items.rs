use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Topping {
    Cheese,
    Olives,
    Basil,
}

#[derive(Elicit)]
struct Pizza {
    #[elicit(max_items = 1, default = [Topping::Cheese, Topping::Olives])]
    toppings: Vec<Topping>,
}

fn main() {}
