//! A derived form held to an independent validator: on answers generated from the form's own
//! schema, valid and near its rules, `from_content` accepts each field exactly when the
//! `jsonschema` crate (draft 2020-12, `format` checked) accepts it against the emitted
//! `requestedSchema`, but for the differences named here, each in one direction only.
//!
//! Three verdicts on each field of each answer:
//! - the independent validator's, on the emitted schema with `"uniqueItems": true` on every
//!   multi-select (a rule the derive adds: [`schema_with_unique_items`]) and on the answer with
//!   `null` left out of optional fields (elicit reads that `null` as absent: the one place it
//!   takes what the schema alone would refuse, deliberately);
//! - the schema's own reading, [`RequestedSchema::validate_content`], what a client and the
//!   secure page check;
//! - the form's, `from_content` (and `from_content_owned`, which must say the same).
//!
//! The schema's reading parts from the validator only where two implementations of a format
//! do ([`SCHEMA_READING_STRICTER`], [`VALIDATOR_STRICTER`]). The form parts from the schema's
//! reading only where the derive adds a rule the schema cannot state, on a field the caller
//! names ([`Beyond`]: a typed value's own parse), and then the form refuses what the schema
//! accepts, never the other way; where both refuse, they say the same [`Problem`]. A mismatch
//! fails with the form, the answer (shrunk by proptest) and the three verdicts.
//!
//! [`schema_with_unique_items`]: crate::forms::schema_with_unique_items
//! [`Problem`]: elicit_mcp::Problem

pub mod beyond;
mod formats;
mod patterns;
mod values;

use std::cell::RefCell;
use std::collections::BTreeMap;

use elicit_mcp::schema::{PrimitiveSchema, RequestedSchema, StringFormat};
use elicit_mcp::{ContentError, Elicit, Problem};
use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::LocationSegment;
use proptest::strategy::BoxedStrategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value};

use crate::forms::schema_with_unique_items;
use crate::spec::validator;

pub use formats::fixtures as format_fixtures;
pub use formats::near as near_format;
pub use values::{
    aimed_at, content_for, edgy_value_of, float_json, integer_json, other_types_than,
    valid_value_of,
};

/// A rule `from_content` applies to a field beyond what its schema states: the field's type
/// parses the value further than the schema's keywords say (a `url::Url` is what the `url`
/// crate parses, not any RFC 3986 URI). On that field the form may refuse a value the schema
/// accepts, when `refuses` says the rule is why.
pub struct Beyond {
    /// The field's wire name.
    pub field: &'static str,
    /// The rule, as the derive's reference states it.
    pub rule: &'static str,
    /// Whether the rule refuses this value.
    pub refuses: fn(&Value) -> bool,
    /// Values at the rule's edge, some it refuses and some it takes, which answers aimed at
    /// the field try besides the random ones.
    pub probe: fn() -> BoxedStrategy<Value>,
}

/// A place where two readings of a string format part, on the values `applies` says.
pub struct Difference {
    /// What differs, and which reading is right by the format's RFC.
    pub says: &'static str,
    /// Whether the difference explains the verdicts on this value of a property of `format`.
    pub applies: fn(StringFormat, &Value) -> bool,
}

/// Where elicit's format checks (shared by the schema's reading and the form) refuse what the
/// independent validator accepts.
pub const SCHEMA_READING_STRICTER: &[Difference] = &[
    Difference {
        says: "a leap second is only the last second of a month in UTC (RFC 3339 5.7, as `time` \
               reads it); jsonschema takes 23:59:60 UTC of any day",
        applies: |format, value| {
            format == StringFormat::DateTime
                && value.as_str().and_then(|s| s.get(17..19)) == Some("60")
        },
    },
    Difference {
        says: "a display name (`Ada <ada@example.com>`): jsonschema parses with \
               `email_address`'s defaults, which take one; RFC 5321's Mailbox has none",
        applies: |format, value| {
            format == StringFormat::Email
                && value
                    .as_str()
                    .is_some_and(|s| s.contains(" <") && s.ends_with('>'))
        },
    },
    Difference {
        says: "an empty quoted local part (`\"\"@example.com`): RFC 5321 allows it, \
               `email_address` does not",
        applies: |format, value| {
            format == StringFormat::Email && value.as_str().is_some_and(|s| s.contains("\"\"@"))
        },
    },
];

/// Where the independent validator refuses what elicit's format checks accept.
pub const VALIDATOR_STRICTER: &[Difference] = &[Difference {
    says: "jsonschema holds an email's domain to IDNA's rules (a label with `--` in its third \
           and fourth places must be a valid A-label); RFC 5321, which JSON Schema's `email` \
           names, takes any letters, digits and inner hyphens",
    applies: |format, value| {
        format == StringFormat::Email
            && value.as_str().is_some_and(|s| {
                s.rsplit('@')
                    .next()
                    .is_some_and(|domain| domain.split('.').any(|l| l.get(2..4) == Some("--")))
            })
    },
}];

/// How many answers a form of `properties` fields gets: enough that each field is seen both
/// accepted and refused, few enough that every form of the tests runs in seconds.
pub fn cases_for(properties: usize) -> u32 {
    (32 * properties as u32).clamp(64, 256)
}

/// Holds form `T` to the independent validator (see the [module](self)), with `beyond` the
/// rules its fields' types add to the schema. Panics with the form, the answer and the verdicts
/// at the first disagreement, and when the answers left a field or a rule of `beyond` untried.
pub fn check<T: Elicit>(beyond: &[Beyond]) {
    let schema = T::requested_schema();
    let form = std::any::type_name::<T>();
    for rule in beyond {
        assert!(
            schema.property(rule.field).is_some(),
            "{form} has no field `{}` for the rule beyond its schema",
            rule.field
        );
    }
    let independent = validator(&schema_with_unique_items::<T>());
    let seen = RefCell::new(Seen::default());
    let run = |answers: BoxedStrategy<Map<String, Value>>, cases: u32| {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        let outcome = runner.run(&answers, |content| {
            let verdicts = Verdicts::of::<T>(&independent, &content)?;
            verdicts.agree(schema, beyond, &content, &mut seen.borrow_mut())
        });
        if let Err(failure) = outcome {
            panic!(
                "{form} disagrees with jsonschema: {failure}\nits schema: {}",
                T::requested_schema_json()
            );
        }
    };
    let cases = cases_for(schema.properties().len());
    run(content_for(schema), cases);
    for (index, property) in schema.properties().iter().enumerate() {
        run(aimed_at(schema, index, valid_value_of(property)), AIMED);
        run(
            aimed_at(schema, index, other_types_than(&property.schema)),
            AIMED,
        );
        run(
            aimed_at(schema, index, edgy_value_of(&property.schema)),
            AIMED_NEAR,
        );
    }
    for rule in beyond {
        let index = schema
            .properties()
            .iter()
            .position(|property| property.name == rule.field)
            .expect("checked above");
        run(aimed_at(schema, index, (rule.probe)()), PROBES);
    }
    seen.into_inner().enough(form, schema, beyond, cases);
}

/// How many answers aim at each side of each field.
const AIMED: u32 = 4;

/// How many answers put a value near its rules in each field, the others valid: where a rule
/// the schema does not state would show, on a form whose random answers reach that field
/// seldom.
const AIMED_NEAR: u32 = 24;

/// How many answers try each rule beyond the schema with its probe.
const PROBES: u32 = 32;

/// Runs [`check`], with no rule beyond the schema, on each listed form.
#[macro_export]
macro_rules! agree_with_jsonschema {
    ($($ty:ty),* $(,)?) => {$(
        $crate::differential::check::<$ty>(&[]);
    )*};
}
// Exported at the crate's root, as every `macro_export` is; named here too, beside its check.
pub use agree_with_jsonschema;

/// The three verdicts on one answer: the fields each refuses, with the form's and the schema's
/// problems.
struct Verdicts {
    independent: BTreeMap<String, Vec<String>>,
    schema: BTreeMap<String, Problem>,
    form: BTreeMap<String, Problem>,
    form_accepted: bool,
}

impl Verdicts {
    fn of<T: Elicit>(
        independent: &Validator,
        content: &Map<String, Value>,
    ) -> Result<Verdicts, TestCaseError> {
        let schema = T::requested_schema();
        let by_form = T::from_content(content).map(drop);
        let by_owned = T::from_content_owned(content.clone()).map(drop);
        if by_owned != by_form {
            return Err(TestCaseError::fail(format!(
                "from_content_owned and from_content differ on {}: {by_owned:?} and {by_form:?}",
                Value::Object(content.clone())
            )));
        }
        Ok(Verdicts {
            independent: independent_verdict(independent, schema, content),
            schema: problems(schema.validate_content(content)),
            form_accepted: by_form.is_ok(),
            form: problems(by_form),
        })
    }

    /// Checks the verdicts against each other field by field, and counts what was seen.
    fn agree(
        &self,
        schema: &RequestedSchema,
        beyond: &[Beyond],
        content: &Map<String, Value>,
        seen: &mut Seen,
    ) -> Result<(), TestCaseError> {
        if self.form_accepted != self.form.is_empty() {
            return Err(self.mismatch(content, "from_content's outcome and its errors disagree"));
        }
        for property in schema.properties() {
            let name = &*property.name;
            let value = content.get(name).unwrap_or(&Value::Null);
            let by_validator = !self.independent.contains_key(name);
            let by_schema = !self.schema.contains_key(name);
            let by_form = !self.form.contains_key(name);
            if by_schema != by_validator {
                let format = match &property.schema {
                    PrimitiveSchema::String(s) => s.format,
                    _ => None,
                };
                let (list, expected) = if by_validator {
                    (
                        SCHEMA_READING_STRICTER,
                        "validate_content refuses what jsonschema accepts",
                    )
                } else {
                    (
                        VALIDATOR_STRICTER,
                        "jsonschema refuses what validate_content accepts",
                    )
                };
                let explained =
                    format.is_some_and(|format| list.iter().any(|d| (d.applies)(format, value)));
                if !explained {
                    return Err(self.mismatch(content, &format!("`{name}`: {expected}")));
                }
            }
            if by_form != by_schema {
                let rule = beyond
                    .iter()
                    .find(|rule| rule.field == name && (rule.refuses)(value));
                match rule {
                    Some(rule) if by_schema => seen.beyond(rule.field, rule.rule),
                    _ => {
                        let which = if by_form {
                            "from_content accepts what validate_content refuses"
                        } else {
                            "from_content refuses what validate_content accepts, for no rule \
                             declared beyond the schema"
                        };
                        return Err(self.mismatch(content, &format!("`{name}`: {which}")));
                    }
                }
            }
            if let (Some(form), Some(by_schema)) = (self.form.get(name), self.schema.get(name))
                && form != by_schema
            {
                return Err(self.mismatch(
                    content,
                    &format!("`{name}`: from_content and validate_content say different problems"),
                ));
            }
            seen.field(name, by_form);
        }
        seen.form(self.form_accepted);
        Ok(())
    }

    fn mismatch(&self, content: &Map<String, Value>, what: &str) -> TestCaseError {
        TestCaseError::fail(format!(
            "{what}\n  answer: {}\n  jsonschema: {:?}\n  validate_content: {:?}\n  \
             from_content: {:?}",
            Value::Object(content.clone()),
            self.independent,
            self.schema,
            self.form,
        ))
    }
}

/// The fields the independent validator refuses, with its messages, on `content` with `null`
/// left out of optional fields (as elicit reads it: absent).
fn independent_verdict(
    independent: &Validator,
    schema: &RequestedSchema,
    content: &Map<String, Value>,
) -> BTreeMap<String, Vec<String>> {
    let mut read = content.clone();
    read.retain(|name, value| {
        !value.is_null()
            || schema
                .property(name)
                .is_none_or(|property| property.required)
    });
    let instance = Value::Object(read);
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for error in independent.iter_errors(&instance) {
        let field = match error.kind() {
            ValidationErrorKind::Required { property } => {
                property.as_str().unwrap_or_default().to_owned()
            }
            _ => match error.instance_path().segments().next() {
                Some(LocationSegment::Property(name)) => name.into_owned(),
                _ => String::new(),
            },
        };
        refused.entry(field).or_default().push(error.to_string());
    }
    refused
}

/// The problem of each field at fault, by wire name.
fn problems(verdict: Result<(), ContentError>) -> BTreeMap<String, Problem> {
    match verdict {
        Ok(()) => BTreeMap::new(),
        Err(errors) => errors
            .errors()
            .iter()
            .map(|error| (error.field().to_owned(), error.problem().clone()))
            .collect(),
    }
}

/// What the answers of one check tried: each field accepted and refused, the form accepted
/// and refused, the rules beyond the schema that explained a refusal.
#[derive(Default)]
struct Seen {
    fields: BTreeMap<String, (u32, u32)>,
    forms: (u32, u32),
    rules: BTreeMap<String, u32>,
}

impl Seen {
    fn field(&mut self, name: &str, accepted: bool) {
        let counts = self.fields.entry(name.to_owned()).or_default();
        if accepted {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }

    fn form(&mut self, accepted: bool) {
        if accepted {
            self.forms.0 += 1;
        } else {
            self.forms.1 += 1;
        }
    }

    fn beyond(&mut self, field: &str, rule: &str) {
        *self.rules.entry(format!("`{field}`: {rule}")).or_default() += 1;
    }

    /// Panics unless every field was seen accepted and refused, the form too, and every rule
    /// beyond the schema explained a refusal: a check that never tried one side tells nothing
    /// of it.
    fn enough(&self, form: &str, schema: &RequestedSchema, beyond: &[Beyond], cases: u32) {
        for property in schema.properties() {
            let (accepted, refused) = self
                .fields
                .get(&*property.name)
                .copied()
                .unwrap_or_default();
            assert!(
                accepted > 0 && refused > 0,
                "{form}: `{}` accepted {accepted} and refused {refused} times in {cases} \
                 answers: the generator misses a side",
                property.name
            );
        }
        let (accepted, refused) = self.forms;
        assert!(
            accepted > 0 && (refused > 0 || schema.properties().is_empty()),
            "{form}: accepted {accepted} and refused {refused} of {cases} answers"
        );
        for rule in beyond {
            let key = format!("`{}`: {}", rule.field, rule.rule);
            assert!(
                self.rules.contains_key(&key),
                "{form}: no answer of {cases} tried the rule beyond the schema {key}"
            );
        }
    }
}
