use elicit_mcp::Elicit;
use url::Url;

// `url::Url` is a field type with elicit-mcp's `url` feature, which is off here.
#[derive(Elicit)]
struct Bookmark {
    link: Url,
}

fn main() {}
