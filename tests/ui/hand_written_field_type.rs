use elicit_mcp::schema::PrimitiveSchema;
use elicit_mcp::{ElicitValue, Problem};

// A field type of one's own is a newtype with the derive; the field traits are sealed.
struct Celsius(f64);

impl ElicitValue for Celsius {
    const KIND: elicit_mcp::__private::Kind = <f64 as ElicitValue>::KIND;
    type DefaultLiteral = f64;
    fn from_default(literal: f64) -> Result<Self, Problem> {
        Ok(Celsius(literal))
    }
    fn from_json(
        value: &serde_json::Value,
        schema: &PrimitiveSchema,
        pattern: Option<&elicit_mcp::__private::Matcher>,
    ) -> Result<Self, Problem> {
        f64::from_json(value, schema, pattern).map(Celsius)
    }
    fn to_json(&self) -> serde_json::Value {
        self.0.into()
    }
}

fn main() {}
