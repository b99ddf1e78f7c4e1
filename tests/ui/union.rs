use elicit_mcp::Elicit;

#[derive(Elicit)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
