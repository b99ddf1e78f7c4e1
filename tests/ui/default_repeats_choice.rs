use elicit_mcp::Elicit;

#[derive(Elicit)]
enum Topping {
    Cheese,
    Olives,
}

#[derive(Elicit)]
struct Pizza {
    #[elicit(default = [Topping::Cheese, Topping::Cheese])]
    toppings: Vec<Topping>,
}

fn main() {}
