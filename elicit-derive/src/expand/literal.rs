//! Values written in the attributes as the runtime's constant expressions: numbers (the runtime's
//! `Number`, with the text serde_json prints).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::internals::attr::NumValue;

/// A number as the runtime's `Number`: integers exactly, floats with the text `serde_json`
/// prints for them (`zmij` since serde_json 1.0.147; `ryu` before it wrote `1e38` where serde_json
/// now writes `1e+38`), so the const JSON writer needs no float formatting.
pub fn number(value: NumValue) -> TokenStream {
    match value {
        NumValue::Int(i) => {
            let i = i64::try_from(i).unwrap_or(if i < 0 { i64::MIN } else { i64::MAX });
            quote!(__elicit_private::Number::from_i64(#i))
        }
        NumValue::Float(f) => {
            let text = zmij::Buffer::new().format_finite(f).to_owned();
            let lit = Literal::f64_suffixed(f);
            quote!(__elicit_private::float(#lit, #text))
        }
    }
}
