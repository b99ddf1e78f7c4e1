// The generated code names everything by absolute path, so local items named like the
// prelude's, std's or elicit's own cannot capture it.
#![allow(dead_code, non_camel_case_types, non_upper_case_globals, unused_macros)]

struct Result;
struct Option;
struct Some;
struct None;
struct Ok;
struct Err;
struct Default;
struct Vec;
struct Box;
struct Map;
struct Value;
struct Property;
struct ContentError;
mod core {}
mod std {}
mod elicit {}
mod __private {}
trait Elicit {}
trait ElicitField {}
trait ElicitChoice {}
trait Clone {}
trait Copy {}
trait Sized {}
fn field() {}
// The generated code's locals and parameters are prefixed as serde's are, so constants and unit
// structs named like them cannot turn a binding into a pattern.
const errors: () = ();
const content: () = ();
const properties: () = ();
const key: () = ();
const value: () = ();
const literal: () = ();
const schema: () = ();
const pattern: () = ();
struct slots;
fn property() {}
struct FormDefault;
trait FormDefaults {}
struct PhantomData;
fn panic() {}
macro_rules! panic {
    ($($t:tt)*) => {
        compile_error!("the derive must call ::core::panic!")
    };
}
macro_rules! unreachable {
    ($($t:tt)*) => {
        compile_error!("the derive must call ::core::unreachable!")
    };
}

#[derive(::elicit_mcp::Elicit, Debug, PartialEq)]
enum Color {
    Red,
    Green,
}

#[derive(::elicit_mcp::Elicit, Debug)]
#[elicit(message = "Order")]
struct Order {
    #[elicit(min_length = 1, pattern = "^[a-z]+$", default = "abc")]
    name: ::std::string::String,
    #[elicit(minimum = 1, maximum = 9, default = 2)]
    count: u8,
    #[elicit(default = Color::Red)]
    color: Color,
    #[elicit(min_items = 1, default = [Color::Green])]
    colors: ::std::vec::Vec<Color>,
    note: ::core::option::Option<::std::string::String>,
    #[elicit(skip)]
    internal: u64,
}

/// A newtype: its impl's parameters must not be captured either.
#[derive(::elicit_mcp::Elicit, Debug, PartialEq)]
#[elicit(pattern = "^[a-z]+$")]
struct Word(::std::string::String);

/// Named as `Words`' defaults type would be: the derive names its own otherwise, so that it
/// does not shadow this one where the field's type is written.
#[derive(::elicit_mcp::Elicit, Debug, PartialEq)]
struct WordsDefaults(::std::string::String);

#[derive(::elicit_mcp::Elicit, Debug)]
struct Words {
    word: Word,
    other: ::core::option::Option<WordsDefaults>,
}

/// A generic form: its defaults' phantom field must not be captured either.
#[derive(::elicit_mcp::Elicit)]
struct Generic<T> {
    value: T,
}

fn main() {
    let answer = ::serde_json::json!({"word": "abc"});
    let words = <Words as ::elicit_mcp::Elicit>::from_content(answer.as_object().unwrap()).unwrap();
    assert_eq!(words.word, Word("abc".into()));
    let note = ::serde_json::json!({"note": "hi"});
    let order = <Order as ::elicit_mcp::Elicit>::from_content(note.as_object().unwrap()).unwrap();
    assert_eq!(order.color, Color::Red);
    assert_eq!(order.colors, [Color::Green]);
    assert_eq!(order.count, 2);
    let _ = <Order as ::elicit_mcp::Elicit>::form_request();
    let defaults = ::elicit_mcp::defaults_of::<Words>(|d| {
        d.word.set(Word("abc".into()));
        d.other.set(WordsDefaults("def".into()));
    });
    assert_eq!(defaults["other"], "def");
    let defaults = ::elicit_mcp::defaults_of::<Generic<u8>>(|d| d.value.set(3));
    assert_eq!(defaults["value"], 3);
}
