use elicit_mcp::Elicit;

// Every mistake the derive finds in one form is reported in one build.
#[derive(Elicit)]
#[elicit(message = "Sign up", rename_all = "camelCase")]
struct SignUp {
    #[elicit(min_length = 8, max_length = 4)]
    user_name: String,
    password: String,
    #[elicit(format = "phone")]
    phone: String,
    #[elicit(pattern = "(unclosed")]
    code: String,
    #[elicit(minimum = 120, maximum = 18, placeholder = "42")]
    age: u8,
    #[elicit(rename = "userName")]
    nickname: String,
}

fn main() {
    // The derive still implements `Elicit`, so uses of the form add no errors of their own.
    let _ = SignUp::form_request();
}
