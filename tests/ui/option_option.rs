use elicit::Elicit;

#[derive(Elicit)]
struct Profile {
    nickname: Option<Option<String>>,
}

fn main() {}
