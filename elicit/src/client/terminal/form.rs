//! Form mode: one inquire prompt per property, each answer checked by the crate's validator on
//! a schema of that property alone, and the whole content by `accept_form` before it is sent.

use std::fmt;
use std::str::FromStr;

use inquire::error::CustomUserError;
use inquire::list_option::ListOption;
use inquire::validator::{ErrorMessage, Validation};
use inquire::{CustomType, MultiSelect, Select, Text};
use serde_json::{Map, Value};

use super::{Stop, TerminalError, stopped, style};
use crate::client::accept_form;
use crate::schema::{
    NumberSchema, NumberType, PrimitiveSchema, Property, RequestedSchema, StringFormat,
    StringSchema, TitledOption,
};
use crate::wire::ElicitResult;

pub(super) fn render(
    message: &str,
    schema: &RequestedSchema,
) -> Result<ElicitResult, TerminalError> {
    fill(message, schema).or_else(stopped)
}

fn fill(message: &str, schema: &RequestedSchema) -> Result<ElicitResult, Stop> {
    introduce(message, schema);
    let blockers: Vec<String> = schema
        .properties()
        .iter()
        .filter_map(unanswerable)
        .collect();
    if !blockers.is_empty() {
        // Offering to fill it in would lead to a field nobody can answer.
        eprintln!("{}", style::warning("This form cannot be filled in:"));
        for blocker in &blockers {
            eprintln!("  {blocker}");
        }
        return match choose("Answer this form?", &["Decline", "Cancel"])? {
            0 => Ok(ElicitResult::decline()),
            _ => Ok(ElicitResult::cancel()),
        };
    }
    if !schema.properties().is_empty() {
        match choose(
            "Answer this form?",
            &["Fill in the form", "Decline", "Cancel"],
        )? {
            0 => {}
            1 => return Ok(ElicitResult::decline()),
            _ => return Ok(ElicitResult::cancel()),
        }
    }
    let mut content = Map::new();
    let mut to_ask: Vec<&Property> = schema.properties().iter().collect();
    loop {
        for property in &to_ask {
            ask(property, &mut content)?;
        }
        match choose("Send your answers?", &["Send", "Decline", "Cancel"])? {
            0 => {}
            1 => return Ok(ElicitResult::decline()),
            _ => return Ok(ElicitResult::cancel()),
        }
        // The fields were checked one by one; this adds the defaults of fields left empty and
        // checks the whole, so a default that breaks its own schema is caught too.
        match accept_form(schema, content.clone()) {
            Ok(result) => return Ok(result),
            Err(errors) => {
                eprintln!("{}", style::warning("The form cannot be sent yet:"));
                for error in errors.errors() {
                    let label = schema
                        .property(error.field())
                        .map_or(error.field(), label_of);
                    eprintln!("  {} {}", label, error.message());
                }
                to_ask = errors
                    .errors()
                    .iter()
                    .filter_map(|error| schema.property(error.field()))
                    .collect();
            }
        }
    }
}

/// The server's message, the form's own title and description if it has them, and how the
/// form works.
fn introduce(message: &str, schema: &RequestedSchema) {
    eprintln!("{}", style::heading(message));
    if let Some(title) = &schema.title {
        eprintln!("{}", style::heading(title));
    }
    if let Some(description) = &schema.description {
        eprintln!("{description}");
    }
    let required = if schema.required().next().is_some() {
        "Fields marked * are required. "
    } else {
        ""
    };
    eprintln!(
        "{}",
        style::dim(format!("{required}Esc or Ctrl-C cancels the whole form."))
    );
}

/// Why a select offering no choices cannot be answered, if its empty answer fails the check.
fn unanswerable(property: &Property) -> Option<String> {
    if !property
        .schema
        .choices()
        .is_some_and(|choices| choices.is_empty())
    {
        return None;
    }
    let alone = RequestedSchema::new(vec![property.clone()]);
    match check(&alone, empty_selection(property).as_ref()) {
        Validation::Valid => None,
        Validation::Invalid(ErrorMessage::Custom(reason)) => {
            Some(format!("{reason}, and it offers no choices"))
        }
        Validation::Invalid(ErrorMessage::Default) => {
            Some(format!("{} offers no choices", label_of(property)))
        }
    }
}

/// The answer of a select that offers no choices: nothing, or an empty list for a required
/// multi-select.
fn empty_selection(property: &Property) -> Option<Value> {
    let multi = matches!(
        property.schema,
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_)
    );
    (multi && property.required).then(|| Value::Array(Vec::new()))
}

/// One of `choices`, by index.
fn choose(question: &str, choices: &[&'static str]) -> Result<usize, Stop> {
    let picked = Select::new(question, choices.to_vec())
        .without_filtering()
        .with_help_message("↑↓ to move, enter to pick")
        .raw_prompt()?;
    Ok(picked.index)
}

/// Asks one property, starting from its current answer or else its default, and records the
/// answer (or its absence) in `content`.
fn ask(property: &Property, content: &mut Map<String, Value>) -> Result<(), Stop> {
    let field = Field::new(property, content.get(&*property.name).cloned());
    let no_choices = property
        .schema
        .choices()
        .is_some_and(|choices| choices.is_empty());
    let answer = match &property.schema {
        // Nothing to pick from (and `unanswerable` found that acceptable): no prompt.
        _ if no_choices => {
            eprintln!(
                "{}",
                style::dim(format!("{} offers no choices.", label_of(property)))
            );
            empty_selection(property)
        }
        PrimitiveSchema::String(schema) => field.text(schema)?,
        PrimitiveSchema::Number(schema) => field.number(schema)?,
        PrimitiveSchema::Boolean(_) => field.yes_no()?,
        PrimitiveSchema::SingleSelect(_)
        | PrimitiveSchema::TitledSingleSelect(_)
        | PrimitiveSchema::LegacyTitled(_) => field.single_select()?,
        PrimitiveSchema::MultiSelect(_) | PrimitiveSchema::TitledMultiSelect(_) => {
            field.multi_select()?
        }
    };
    match answer {
        Some(value) => content.insert(property.name.to_string(), value),
        None => content.remove(&*property.name),
    };
    Ok(())
}

fn label_of(property: &Property) -> &str {
    property.schema.title().unwrap_or(&property.name)
}

/// One property being asked: its prompt label, its help line, the value to start from, and a
/// schema of this property alone for the shared validator.
struct Field<'p> {
    property: &'p Property,
    /// The title (or name), `*` after it when required.
    prompt: String,
    alone: RequestedSchema,
    start: Option<Value>,
}

impl<'p> Field<'p> {
    fn new(property: &'p Property, current: Option<Value>) -> Self {
        let label = label_of(property);
        Field {
            property,
            prompt: if property.required {
                format!("{label} *")
            } else {
                label.to_owned()
            },
            alone: RequestedSchema::new(vec![property.clone()]),
            start: current.or_else(|| property.schema.default_value()),
        }
    }

    fn check(&self, value: Option<&Value>) -> Validation {
        check(&self.alone, value)
    }

    /// The description, then what the field takes, as the help line under the prompt.
    fn help(&self, rules: Vec<String>) -> String {
        let mut parts: Vec<String> = self
            .property
            .schema
            .description()
            .map(str::to_owned)
            .into_iter()
            .collect();
        parts.extend(rules);
        parts.join(" · ")
    }

    /// Said of optional fields without a default: those with one take it when left empty.
    fn empty_allowed(&self) -> Option<String> {
        (!self.property.required && self.property.schema.default_value().is_none())
            .then(|| "Enter on an empty field leaves it out".to_owned())
    }

    fn text(&self, schema: &StringSchema) -> Result<Option<Value>, Stop> {
        let help = self.help(
            string_rules(schema)
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let validator = |input: &str| -> Result<Validation, CustomUserError> {
            Ok(self.check(text_value(input).as_ref()))
        };
        let start = self.start.as_ref().and_then(Value::as_str);
        let mut prompt = Text::new(&self.prompt)
            .with_help_message(&help)
            .with_validator(validator);
        if let Some(start) = start {
            prompt = prompt.with_initial_value(start);
        }
        Ok(text_value(&prompt.prompt()?))
    }

    fn number(&self, schema: &NumberSchema) -> Result<Option<Value>, Stop> {
        let help = self.help(
            number_rules(schema)
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let validator = |input: &str| -> Result<Validation, CustomUserError> {
            Ok(match number_value(input, schema.kind) {
                Ok(value) => self.check(value.as_ref()),
                Err(()) => Validation::Invalid(
                    format!(
                        "{} must be {}, got \"{}\"",
                        label_of(self.property),
                        kind_name(schema.kind),
                        input.trim()
                    )
                    .into(),
                ),
            })
        };
        let start = self.start.as_ref().map(Value::to_string);
        let mut prompt = Text::new(&self.prompt)
            .with_help_message(&help)
            .with_validator(validator);
        if let Some(start) = &start {
            prompt = prompt.with_initial_value(start);
        }
        let input = prompt.prompt()?;
        // The validator passed this very input, so it parses.
        Ok(number_value(&input, schema.kind).unwrap_or_default())
    }

    fn yes_no(&self) -> Result<Option<Value>, Stop> {
        let required = self.property.required;
        let help = self.help(
            vec!["y for yes, n for no".to_owned()]
                .into_iter()
                .chain(self.empty_allowed())
                .collect(),
        );
        let parser = |input: &str| match input.parse::<YesNo>() {
            Ok(YesNo(None)) if required => Err(()),
            other => other.map_err(drop),
        };
        let format_default = |answer: YesNo| match answer.0 {
            Some(true) => "Y/n".to_owned(),
            Some(false) => "y/N".to_owned(),
            None => "y/n".to_owned(),
        };
        let mut prompt = CustomType::<YesNo>::new(&self.prompt)
            .with_parser(&parser)
            .with_default_value_formatter(&format_default)
            .with_error_message("Type y for yes or n for no")
            .with_help_message(&help);
        match self.start.as_ref().and_then(Value::as_bool) {
            Some(start) => prompt = prompt.with_default(YesNo(Some(start))),
            None => prompt = prompt.with_placeholder("y/n"),
        }
        Ok(prompt.prompt()?.0.map(Value::Bool))
    }

    fn single_select(&self) -> Result<Option<Value>, Stop> {
        let mut choices = choices_of(&self.property.schema);
        if !self.property.required {
            choices.insert(0, Choice::leave_empty());
        }
        let start = self.start.as_ref().and_then(Value::as_str);
        let cursor = choices
            .iter()
            .position(|choice| choice.value.as_deref() == start)
            .unwrap_or(0);
        let help = self.help(vec!["↑↓ to move, enter to pick, type to filter".to_owned()]);
        let picked = Select::new(&self.prompt, choices)
            .with_starting_cursor(cursor)
            .with_help_message(&help)
            .prompt()?;
        Ok(picked.value.map(Value::String))
    }

    fn multi_select(&self) -> Result<Option<Value>, Stop> {
        let (min_items, max_items) = match &self.property.schema {
            PrimitiveSchema::MultiSelect(s) => (s.min_items, s.max_items),
            PrimitiveSchema::TitledMultiSelect(s) => (s.min_items, s.max_items),
            _ => (None, None),
        };
        let choices = choices_of(&self.property.schema);
        let ticked: Vec<usize> = match &self.start {
            Some(Value::Array(items)) => choices
                .iter()
                .enumerate()
                .filter(|(_, choice)| {
                    items
                        .iter()
                        .any(|item| item.as_str() == choice.value.as_deref())
                })
                .map(|(index, _)| index)
                .collect(),
            _ => Vec::new(),
        };
        let mut rules = vec!["↑↓ to move, space to tick, → all, ← none, type to filter".to_owned()];
        rules.extend(count_rule(min_items, max_items));
        rules.extend(
            self.empty_allowed()
                .map(|_| "nothing ticked leaves it out".to_owned()),
        );
        let help = self.help(rules);
        // inquire keeps a multi-select's validator for 'static: it gets its own copy.
        let alone = self.alone.clone();
        let required = self.property.required;
        let validator = move |picked: &[ListOption<&Choice>]| {
            let values = picked.iter().map(|option| option.value.clone()).collect();
            Ok::<_, CustomUserError>(check(&alone, picked_value(required, values).as_ref()))
        };
        let picked = MultiSelect::new(&self.prompt, choices.clone())
            .with_default(&ticked)
            .with_help_message(&help)
            .with_validator(validator)
            .prompt()?;
        Ok(picked_value(self.property.required, picked))
    }
}

/// The crate's verdict on the value of the one property of `alone` (`None`: left empty), as
/// the line to show with the prompt.
fn check(alone: &RequestedSchema, value: Option<&Value>) -> Validation {
    let Some(property) = alone.properties().first() else {
        return Validation::Valid;
    };
    let mut content = Map::new();
    if let Some(value) = value {
        content.insert(property.name.to_string(), value.clone());
    }
    match alone.validate_content(&content) {
        Ok(()) => Validation::Valid,
        Err(errors) => Validation::Invalid(
            errors
                .errors()
                .iter()
                .map(|error| format!("{} {}", label_of(property), error.message()))
                .collect::<Vec<_>>()
                .join("; ")
                .into(),
        ),
    }
}

/// The array of the ticked values; none ticked leaves an optional field out.
fn picked_value(required: bool, picked: Vec<Choice>) -> Option<Value> {
    let values: Vec<Value> = picked
        .into_iter()
        .filter_map(|choice| choice.value.map(Value::String))
        .collect();
    (required || !values.is_empty()).then_some(Value::Array(values))
}

/// A text answer: empty leaves the field out (a required field then reads as missing).
fn text_value(input: &str) -> Option<Value> {
    (!input.is_empty()).then(|| Value::String(input.to_owned()))
}

/// A number answer: empty leaves the field out; `Err` when the input is not a number. An
/// integer field's `3.0` is sent as `3`.
fn number_value(input: &str, kind: NumberType) -> Result<Option<Value>, ()> {
    let input = input.trim();
    if input.is_empty() {
        return Ok(None);
    }
    if let Ok(integer) = input.parse::<i64>() {
        return Ok(Some(Value::from(integer)));
    }
    if let Ok(integer) = input.parse::<u64>() {
        return Ok(Some(Value::from(integer)));
    }
    let float = input.parse::<f64>().map_err(drop)?;
    if !float.is_finite() {
        return Err(());
    }
    // Below 2^53 a whole double is exactly an integer.
    if kind == NumberType::Integer && float.fract() == 0.0 && float.abs() < 9_007_199_254_740_992.0
    {
        return Ok(Some(Value::from(float as i64)));
    }
    Ok(serde_json::Number::from_f64(float).map(Value::Number))
}

fn kind_name(kind: NumberType) -> &'static str {
    match kind {
        NumberType::Integer => "a whole number",
        NumberType::Number => "a number",
    }
}

fn string_rules(schema: &StringSchema) -> Vec<String> {
    let mut rules = Vec::new();
    match (schema.min_length, schema.max_length) {
        (Some(min), Some(max)) => rules.push(format!("{min} to {max} characters")),
        (Some(min), None) => rules.push(format!("at least {min} characters")),
        (None, Some(max)) => rules.push(format!("at most {max} characters")),
        (None, None) => {}
    }
    if let Some(format) = schema.format {
        rules.push(
            match format {
                StringFormat::Email => "an email address",
                StringFormat::Uri => "an absolute URI, like https://example.com/",
                StringFormat::Date => "a date, YYYY-MM-DD",
                StringFormat::DateTime => "a date and time, like 2024-02-29T12:00:00Z",
            }
            .to_owned(),
        );
    }
    if let Some(pattern) = &schema.pattern {
        rules.push(format!("matching {pattern}"));
    }
    rules
}

fn number_rules(schema: &NumberSchema) -> Vec<String> {
    let kind = kind_name(schema.kind);
    vec![match (schema.minimum, schema.maximum) {
        (Some(min), Some(max)) => format!("{kind} from {min} to {max}"),
        (Some(min), None) => format!("{kind}, at least {min}"),
        (None, Some(max)) => format!("{kind}, at most {max}"),
        (None, None) => kind.to_owned(),
    }]
}

fn count_rule(min_items: Option<u64>, max_items: Option<u64>) -> Option<String> {
    match (min_items, max_items) {
        (Some(min), Some(max)) => Some(format!("tick {min} to {max}")),
        (Some(min), None) => Some(format!("tick at least {min}")),
        (None, Some(max)) => Some(format!("tick at most {max}")),
        (None, None) => None,
    }
}

/// One entry of a select: the value sent, shown by its title.
#[derive(Clone, Debug)]
struct Choice {
    /// `None` for the entry that leaves an optional field empty.
    value: Option<String>,
    title: String,
}

impl Choice {
    fn leave_empty() -> Self {
        Choice {
            value: None,
            title: "(leave empty)".to_owned(),
        }
    }

    fn plain(value: &str) -> Self {
        Choice {
            value: Some(value.to_owned()),
            title: value.to_owned(),
        }
    }

    fn titled(option: &TitledOption) -> Self {
        Choice {
            value: Some(option.value.to_string()),
            title: option.title.to_string(),
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

/// The choices of a select, each under its title: `oneOf`/`anyOf` titles, the legacy
/// `enumNames` (by position), or the value itself.
fn choices_of(schema: &PrimitiveSchema) -> Vec<Choice> {
    match schema {
        PrimitiveSchema::SingleSelect(s) => s.values.iter().map(|v| Choice::plain(v)).collect(),
        PrimitiveSchema::MultiSelect(s) => s.values.iter().map(|v| Choice::plain(v)).collect(),
        PrimitiveSchema::TitledSingleSelect(s) => s.options.iter().map(Choice::titled).collect(),
        PrimitiveSchema::TitledMultiSelect(s) => s.options.iter().map(Choice::titled).collect(),
        PrimitiveSchema::LegacyTitled(s) => s
            .values
            .iter()
            .enumerate()
            .map(|(index, value)| Choice {
                value: Some(value.to_string()),
                title: s.names.get(index).unwrap_or(value).to_string(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A yes/no answer that may be left empty: `y`, `yes`, `n`, `no` (any case), or nothing.
#[derive(Clone, Copy, Debug)]
struct YesNo(Option<bool>);

impl FromStr for YesNo {
    type Err = ();

    fn from_str(input: &str) -> Result<Self, ()> {
        match input.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => Ok(YesNo(Some(true))),
            "n" | "no" => Ok(YesNo(Some(false))),
            "" => Ok(YesNo(None)),
            _ => Err(()),
        }
    }
}

impl fmt::Display for YesNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Some(true) => "Yes",
            Some(false) => "No",
            None => "(left empty)",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_exactly_and_integers_lose_a_zero_fraction() {
        assert_eq!(
            number_value(" 42 ", NumberType::Integer),
            Ok(Some(Value::from(42)))
        );
        assert_eq!(
            number_value("3.0", NumberType::Integer),
            Ok(Some(Value::from(3)))
        );
        assert_eq!(
            number_value("3.0", NumberType::Number),
            Ok(Some(Value::from(3.0)))
        );
        assert_eq!(
            number_value("2.5", NumberType::Integer),
            Ok(Some(Value::from(2.5)))
        );
        assert_eq!(number_value("", NumberType::Number), Ok(None));
        assert_eq!(number_value("inf", NumberType::Number), Err(()));
        assert_eq!(number_value("two", NumberType::Number), Err(()));
    }

    #[test]
    fn legacy_enum_names_title_the_choices() {
        let schema: RequestedSchema = serde_json::from_str(
            r#"{"type":"object","properties":{"size":{"type":"string","enum":["s","m"],
            "enumNames":["Small","Medium"]}}}"#,
        )
        .unwrap();
        let titles: Vec<String> = choices_of(&schema.properties()[0].schema)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(titles, ["Small", "Medium"]);
    }

    #[test]
    fn a_field_is_judged_by_the_shared_validator() {
        let schema: RequestedSchema = serde_json::from_str(
            r#"{"type":"object","properties":{"name":{"type":"string","title":"Name",
            "minLength":3}},"required":["name"]}"#,
        )
        .unwrap();
        let field = Field::new(&schema.properties()[0], None);
        assert!(matches!(
            field.check(Some(&Value::from("Ada"))),
            Validation::Valid
        ));
        let Validation::Invalid(ErrorMessage::Custom(message)) =
            field.check(Some(&Value::from("Al")))
        else {
            panic!("too short passed")
        };
        assert_eq!(message, "Name must be at least 3 characters long, got 2");
        let Validation::Invalid(ErrorMessage::Custom(missing)) = field.check(None) else {
            panic!("missing passed")
        };
        assert_eq!(missing, "Name is required");
    }

    #[test]
    fn a_required_select_without_choices_cannot_be_answered() {
        let schema: RequestedSchema = serde_json::from_str(
            r#"{"type":"object","properties":{
            "size":{"type":"string","title":"Size","enum":[]},
            "tags":{"type":"array","items":{"type":"string","enum":[]}},
            "picks":{"type":"array","minItems":1,"items":{"type":"string","enum":[]}},
            "note":{"type":"string","enum":[]}},"required":["size","tags","picks"]}"#,
        )
        .unwrap();
        let verdicts: Vec<Option<String>> = schema.properties().iter().map(unanswerable).collect();
        assert_eq!(
            verdicts,
            [
                Some("Size is required, and it offers no choices".to_owned()),
                None,
                Some("picks needs at least 1 selected, got 0, and it offers no choices".to_owned()),
                None,
            ]
        );
    }
}
