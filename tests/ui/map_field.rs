use std::collections::HashMap;

use elicit::Elicit;

#[derive(Elicit)]
struct Survey {
    answers: HashMap<String, String>,
}

fn main() {}
